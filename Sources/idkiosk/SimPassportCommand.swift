import ArgumentParser
import Foundation
import Imaging
import MRTD
import VirtualCard
import VirtualPassport

struct SimPassportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passport",
        abstract: "Put a virtual ICAO passport on vsmartcard's virtual reader until interrupted.",
        discussion: """
            The passport's data set is made at start: DG1 from the MRZ, a face payload in DG2, \
            DG11 and DG12 when their fields are given, DG14 and DG15 with the keys asked for, \
            EF.SOD signed by a test document signer under a test CSCA made with libcrypto. \
            --trust-out writes that CSCA, so `idkiosk read-chip --trust DIR` can verify the \
            passport. Test keys only: never for real documents.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "vpcd slot: the TCP port is 35963 + slot.")
    var slot = 0

    @Option(name: .long, help: "The TD3 MRZ (both lines). Default: the ICAO specimen.")
    var mrz: String?

    @Flag(name: .long, help: "Offer PACE in EF.CardAccess (otherwise BAC only).")
    var pace = false

    @Option(name: .long, help: "With --pace: the standardized domain parameter IDs to offer, each as a PACEInfo of id-PACE-ECDH-GM-AES-CBC-CMAC-128 (default 13, brainpoolP256r1; e.g. 12,13 for two curves).")
    var paceParameters = "13"

    @Option(name: .long, help: "Size of a filler face payload in DG2, in bytes (default: a drawn face, a real JPEG of about 20 KB).")
    var faceSize: Int?

    @Option(name: .long, help: "A JPEG or PNG portrait for DG2 instead of the drawn face (the demo's: a real photograph, docs/face-data.md).")
    var photo: String?

    @Flag(name: .long, help: "Store the face as JPEG 2000 (JP2) instead of JPEG.")
    var jpeg2000 = false

    @Flag(name: .long, help: "Store the face as an ISO/IEC 39794-5 record instead of ISO/IEC 19794-5.")
    var iso39794 = false

    @Flag(name: .long, help: "Give the chip an Active Authentication key (RSA 2048, DG15).")
    var activeAuthentication = false

    @Flag(name: .long, help: "Give the chip a Chip Authentication key (ECDH brainpoolP256r1, DG14).")
    var chipAuthentication = false

    @Flag(name: .long, help: "A cloned chip: the data groups of a genuine one, other private keys, so Active and Chip Authentication fail.")
    var clone = false

    @Option(name: .long, help: "DG11 place of birth, its parts separated by < (e.g. ZENITH<UTOPIA).")
    var placeOfBirth: String?

    @Option(name: .long, help: "DG11 permanent address, its parts separated by < (street<city<postal code).")
    var address: String?

    @Option(name: .long, help: "DG12 date of issue, YYYYMMDD.")
    var dateOfIssue: String?

    @Option(name: .long, help: "DG12 issuing authority.")
    var issuingAuthority: String?

    @Option(name: .long, help: "Write the test CSCA certificate (csca.der) into this directory.")
    var trustOut: String?

    @Option(name: .long, help: "Take the passport off after this many seconds (default: wait for Ctrl-C).")
    var seconds: Int?

    func validate() throws {
        guard (0...15).contains(slot) else { throw ValidationError("--slot must be between 0 and 15") }
        if let faceSize, !(1_000...200_000).contains(faceSize) { throw ValidationError("--face-size must be 1000 to 200000") }
        if let seconds, seconds < 1 { throw ValidationError("--seconds must be at least 1") }
        if clone, !activeAuthentication, !chipAuthentication {
            throw ValidationError("--clone needs --active-authentication or --chip-authentication: a clone fails what the genuine chip proves")
        }
        if let dateOfIssue, dateOfIssue.count != 8 || !dateOfIssue.allSatisfy(\.isASCII) || !dateOfIssue.allSatisfy(\.isNumber) {
            throw ValidationError("--date-of-issue must be YYYYMMDD")
        }
        for (name, value) in [("--place-of-birth", placeOfBirth), ("--address", address), ("--issuing-authority", issuingAuthority)] {
            if let value, value.isEmpty || value.utf8.count > 255 { throw ValidationError("\(name) must be 1 to 255 bytes") }
        }
    }

    func run() async throws {
        try await reportingFailures {
            let (_, logger) = try global.start()
            let text = (mrz ?? PassportDataSet.specimenMRZ).split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
            let key: MRZKey
            do {
                key = try MRZ(text).key
            } catch {
                throw CommandFailure(.badInput, "--mrz: \(error)")
            }
            let portrait = try photo.map { path -> RGBImage in
                guard let bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
                    throw CommandFailure(.badInput, "--photo: cannot read \(path)")
                }
                do {
                    return try ImageFile.decodeRGB(bytes)
                } catch {
                    throw CommandFailure(.badInput, "--photo: \(path) is not a readable JPEG or PNG image: \(error)")
                }
            }
            let gm: OID = "0.4.0.127.0.7.2.2.4.2.2"
            let ids = paceParameters.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !ids.isEmpty, ids.allSatisfy({ $0.map { PACE.Parameters(protocol: gm, parameterID: $0) != nil } ?? false }) else {
                throw CommandFailure(.badInput, "--pace-parameters: \(paceParameters) is not a list of curve IDs 8 to 18 (for example 12,13)")
            }
            let offers = ids.compactMap { $0 }.map { (protocol: gm, parameterID: $0) }
            let now = Int64(Date().timeIntervalSince1970)
            let year: Int64 = 365 * 86_400
            let passport: VirtualPassport
            let issuer: TestIssuer
            do {
                issuer = try TestIssuer(signerValidity: (now - year)...(now + year))
                let genuine = try PassportKeys.make(activeAuthentication: activeAuthentication, chipAuthentication: chipAuthentication)
                let keys = clone ? try genuine.cloned() : genuine
                let dg11 = placeOfBirth != nil || address != nil ? LDSEncoder.dataGroup11(placeOfBirth: placeOfBirth, address: address) : nil
                let dg12 = dateOfIssue != nil || issuingAuthority != nil
                    ? LDSEncoder.dataGroup12(issuingAuthority: issuingAuthority, dateOfIssue: dateOfIssue) : nil
                let data = try PassportDataSet.make(
                    mrz: text, faceSize: faceSize, faceEncoding: jpeg2000 ? .jpeg2000 : .jpeg, faceFormat: iso39794 ? .iso39794 : .iso19794,
                    portrait: portrait, dataGroup11: dg11, dataGroup12: dg12, dataGroup14: keys.dataGroup14, dataGroup15: keys.dataGroup15
                ) { try issuer.securityObject($0) }
                passport = VirtualPassport(
                    key: key, files: data.files, cardAccess: pace ? PassportDataSet.paceCardAccess(offering: offers) : nil,
                    activeAuthenticationKey: keys.activeAuthenticationKey, chipAuthenticationKey: keys.chipAuthenticationKey)
            } catch {
                throw CommandFailure(.internalError, "cannot make the test passport: \(error)")
            }
            if let trustOut {
                do {
                    try FileManager.default.createDirectory(atPath: trustOut, withIntermediateDirectories: true)
                    try Data(issuer.cscaCertificate).write(to: URL(fileURLWithPath: trustOut).appendingPathComponent("csca.der"))
                } catch {
                    throw CommandFailure(.badInput, "cannot write the CSCA into \(trustOut): \(error.localizedDescription)")
                }
            }
            let port = VirtualCard.defaultPort + UInt16(slot)
            let card = VirtualCard(application: passport, port: port, logger: logger)
            do {
                try card.insert()
            } catch {
                throw CommandFailure(.deviceMissing, "\(error)")
            }
            let checks = (chipAuthentication ? ", Chip Authentication" : "") + (activeAuthentication ? ", Active Authentication" : "") + (clone ? " (cloned: they fail)" : "")
            Output.text(["virtual passport on vpcd slot \(slot) (port \(port))" + (pace ? ", PACE offered" : ", BAC") + checks + "; Ctrl-C to remove it"])
            await SimCardCommand.waitForSignalOrTimeout(seconds: seconds)
            card.remove()
            Output.text(["virtual passport removed"])
        }
    }
}
