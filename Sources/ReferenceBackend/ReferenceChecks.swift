import Backend
import Foundation
import MRTD
import Vision

/// The checks the reference backend performs itself: image resolution, brightness and
/// sharpness (``ImageQuality``), MRZ check digits and layout, expiry, camera MRZ against chip DG1, and passive
/// authentication with the backend's own trust store (``PassiveAuthenticationVerifier``), and
/// with the face models similarity and liveness (``FaceVerifier``); without them these are
/// NOT_EXECUTED, and the result says so. Pure functions of the parts and the date.
enum ReferenceChecks {

    struct Outcome {
        var capabilities = WorkflowExecutionDetails.Capabilities()
        var idResult: IDResult?
        var faceResult: FaceResult?
        var decision: Decision = .PASSED
        var riskScore: Double = 0
    }

    // MARK: Images

    /// Width and height from a JPEG's start-of-frame marker, nil when it is no JPEG.
    static func jpegDimensions(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else { return nil }
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= bytes.count else { return nil }
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            if marker == 0xDA { return nil }
            index += 2 + length
        }
        return nil
    }

    /// The instant feedback on one uploaded part.
    static func usability(of classifier: PartClassifier, body: Data, credentialId: String, thresholds: ImageQualityThresholds) -> CapabilityResult {
        let id = "usability-\(classifier.rawValue)"
        if classifier == .mrz {
            let parsed = (try? JSONDecoder().decode(MrzData.self, from: body)).flatMap { try? MRZ($0.lines.joined(separator: "\n")) }
            return CapabilityResult(id: id, credentialId: credentialId, decision: parsed == nil ? .REJECTED : .PASSED, reason: parsed == nil ? "MRZ_INVALID" : nil)
        }
        if classifier == .barcode {
            switch barcodeRecord(body) {
            case .success: return CapabilityResult(id: id, credentialId: credentialId, decision: .PASSED)
            case .failure(let failure): return CapabilityResult(id: id, credentialId: credentialId, decision: .REJECTED, reason: failure.reason)
            }
        }
        if classifier == .nfc {
            let chip = try? JSONDecoder().decode(ChipData.self, from: body)
            let ok = chip?.dataGroups["DG1"] != nil
            return CapabilityResult(id: id, credentialId: credentialId, decision: ok ? .PASSED : .REJECTED, reason: ok ? nil : "NO_DG1")
        }
        if classifier == .livenessRecord {
            // The record of a liveness capture: its challenge and the LED's state per frame.
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            let ok = object?["challenge"] is [String: Any] && object?["frames"] is [Any]
            return CapabilityResult(id: id, credentialId: credentialId, decision: ok ? .PASSED : .REJECTED, reason: ok ? nil : "LIVENESS_RECORD_INVALID")
        }
        return assessImage(classifier, body: body, credentialId: credentialId, thresholds: thresholds).usability
    }

    /// One image's usability, brightness and sharpness.
    struct ImageAssessment {
        var usability: CapabilityResult
        var brightness: CapabilityResult
        var sharpness: CapabilityResult
    }

    /// Resolution from the header, then brightness and sharpness of the decoded luma.
    /// Usability names the first problem: `NOT_A_JPEG`, `LOW_RESOLUTION`, `TOO_MANY_PIXELS`,
    /// `JPEG_UNDECODABLE`, `TOO_DARK`, `TOO_BRIGHT`, `BLURRED`.
    static func assessImage(_ classifier: PartClassifier, body: Data, credentialId: String, thresholds: ImageQualityThresholds) -> ImageAssessment {
        var thresholds = thresholds
        // A page of print is white paper: bright is how it should be.
        if classifier.pageNumber != nil { thresholds.maximumMeanLuma = thresholds.maximumPageMeanLuma }
        func result(_ check: String, _ decision: Decision, _ reason: String?) -> CapabilityResult {
            CapabilityResult(id: "\(check)-\(classifier.rawValue)", credentialId: credentialId, decision: decision, reason: reason)
        }
        guard let size = jpegDimensions(body) else {
            return ImageAssessment(
                usability: result("usability", .REJECTED, "NOT_A_JPEG"),
                brightness: result("brightness", .NOT_EXECUTED, "NOT_A_JPEG"), sharpness: result("sharpness", .NOT_EXECUTED, "NOT_A_JPEG"))
        }
        let minimum = minimumSize(of: classifier)
        let longSide = max(size.width, size.height), shortSide = min(size.width, size.height)
        let lowResolution = longSide < max(minimum.0, minimum.1) || shortSide < min(minimum.0, minimum.1)
        let brightness: (Decision, String?), sharpness: (Decision, String?)
        switch ImageQuality.assess(body, width: size.width, height: size.height, thresholds: thresholds) {
        case .notMeasured(let reason):
            brightness = (.NOT_EXECUTED, reason)
            sharpness = (.NOT_EXECUTED, reason)
        case .measured(let statistics):
            brightness = ImageQuality.brightness(statistics, thresholds)
            sharpness = ImageQuality.sharpness(statistics, thresholds)
        }
        let problem = lowResolution ? "LOW_RESOLUTION" : [brightness, sharpness].first { $0.0 != .PASSED }?.1
        return ImageAssessment(
            usability: result("usability", problem == nil ? .PASSED : .REJECTED, problem),
            brightness: result("brightness", brightness.0, brightness.1), sharpness: result("sharpness", sharpness.0, sharpness.1))
    }

    /// The least size (long side, short side) an image must have: a face 240 x 240, a page
    /// of a paper document 1400 x 980 (print stays readable: about 120 dpi on A4 and Letter),
    /// an ID document's side 640 x 400.
    static func minimumSize(of classifier: PartClassifier) -> (Int, Int) {
        if classifier == .face || classifier.rawValue.hasPrefix("LIVENESS_") { return (240, 240) }
        if classifier.pageNumber != nil { return (1400, 980) }
        return (640, 400)
    }

    /// A paper document's pages must run PAGE_1...PAGE_n without a gap (`MISSING_PAGE`); nil
    /// for a document uploaded as FRONT/BACK.
    static func documentPages(_ parts: [StoredPart], credentialId: String) -> CapabilityResult? {
        let numbers = Set(parts.compactMap(\.classifier.pageNumber))
        guard let last = numbers.max() else { return nil }
        let complete = numbers == Set(1...last)
        return CapabilityResult(id: "documentPages", credentialId: credentialId, decision: complete ? .PASSED : .REJECTED, reason: complete ? nil : "MISSING_PAGE")
    }

    // MARK: The whole execution

    static func evaluate(
        parts: [StoredPart], definitionKey: Int, today: Date, verifier: any PassiveAuthenticationVerifier, imageQuality: ImageQualityThresholds,
        faces: any FaceVerifier = NoFaceModels(), enrollmentFace: [UInt8]? = nil, digitalIdentities: [DigitalIdentityOutcome] = [],
        extractionOnly: Bool = false
    ) -> Outcome {
        if definitionKey == WorkflowDefinition.authenticationKey {
            return authenticate(parts: parts, enrollmentFace: enrollmentFace, imageQuality: imageQuality, faces: faces)
        }
        var outcome = Outcome()
        var caps = imageCapabilities(parts, thresholds: imageQuality)
        var requiredNotExecuted = false
        // A Digital Identity the provider verified stands for the ID credential's document;
        // one the person never finished (they used a document instead) decides nothing.
        for digital in digitalIdentities where digital.status.status == .VERIFIED {
            caps.extraction.append(CapabilityResult(id: "extraction-DIGITAL_IDENTITY", credentialId: digital.credentialId, decision: .PASSED))
        }

        let idParts = parts.filter { $0.category == .ID }
        let idCredential = idParts.first?.credentialId
        var portrait: [UInt8]?
        if let idCredential {
            if !idParts.contains(where: { $0.classifier == .front }) {
                caps.usability.append(CapabilityResult(id: "usability-FRONT", credentialId: idCredential, decision: .REJECTED, reason: "MISSING_FRONT"))
            }
            var cameraMRZ: MRZ?
            var cameraLines: [String] = []
            if let part = idParts.first(where: { $0.classifier == .mrz }) {
                if let data = try? JSONDecoder().decode(MrzData.self, from: part.body) {
                    cameraLines = data.lines
                    do {
                        cameraMRZ = try MRZ(data.lines.joined(separator: "\n"))
                        caps.extraction.append(CapabilityResult(id: "extraction-MRZ", credentialId: idCredential, decision: .PASSED))
                    } catch {
                        caps.extraction.append(CapabilityResult(id: "extraction-MRZ", credentialId: idCredential, decision: .REJECTED, reason: reason(for: error)))
                    }
                }
            }
            var chipMRZ: MRZ?
            var chipLines: [String] = []
            var chipData: ChipData?
            if let part = idParts.first(where: { $0.classifier == .nfc }), let chip = try? JSONDecoder().decode(ChipData.self, from: part.body) {
                chipData = chip
                if let dg1 = chip.dataGroups["DG1"], let text = mrzText(fromDG1: dg1) {
                    chipLines = lines(of: text)
                    do {
                        chipMRZ = try MRZ(text)
                        caps.extraction.append(CapabilityResult(id: "extraction-NFC", credentialId: idCredential, decision: .PASSED))
                    } catch {
                        caps.extraction.append(CapabilityResult(id: "extraction-NFC", credentialId: idCredential, decision: .REJECTED, reason: reason(for: error)))
                    }
                } else {
                    caps.extraction.append(CapabilityResult(id: "extraction-NFC", credentialId: idCredential, decision: .REJECTED, reason: "DG1_UNREADABLE"))
                }
                if let dg2 = chip.dataGroups["DG2"] { portrait = (try? DataGroup2([UInt8](dg2)))?.faces.first?.imageData }
                let server = verifier.verify(dataGroups: chip.dataGroups, at: today)
                caps.chipAuthentication.append(CapabilityResult(id: "passiveAuthentication", credentialId: idCredential, decision: server.decision, reason: server.reason))
                caps.chipAuthentication.append(CapabilityResult(
                    id: "stationPassiveAuthentication", credentialId: idCredential,
                    decision: chip.stationVerification.passiveAuthentication, reason: "REPORTED_BY_STATION"
                ))
                if server.decision == .NOT_EXECUTED { requiredNotExecuted = true }
                caps.chipAuthentication += chipChecks(chip, credentialId: idCredential)
            }
            if let cameraMRZ, let chipMRZ {
                let same = cameraMRZ == chipMRZ
                caps.dataChecks.append(CapabilityResult(id: "mrzMatchesChip", credentialId: idCredential, decision: same ? .PASSED : .REJECTED, reason: same ? nil : "MRZ_CHIP_MISMATCH"))
            }
            if let mrz = chipMRZ ?? cameraMRZ {
                let expired = isExpired(mrz.expiryDate, today: today)
                caps.dataChecks.append(CapabilityResult(id: "expiry", credentialId: idCredential, decision: expired ? .REJECTED : .PASSED, reason: expired ? "EXPIRED" : nil))
                outcome.idResult = idResult(mrz, lines: chipMRZ != nil ? chipLines : cameraLines, method: chipMRZ != nil ? "nfc" : "mrz", today: today)
                if chipMRZ != nil, let chipData, var result = outcome.idResult {
                    addDetails(of: chipData, to: &result)
                    outcome.idResult = result
                }
                if let filter = idParts.first?.filter, let result = outcome.idResult {
                    caps.dataChecks.append(documentMatchesWorkflow(result, filter: filter, credentialId: idCredential))
                }
            } else if let part = idParts.first(where: { $0.classifier == .barcode }) {
                switch barcodeRecord(part.body) {
                case .success(let record):
                    caps.extraction.append(CapabilityResult(id: "extraction-BARCODE", credentialId: idCredential, decision: .PASSED))
                    let expired = (try? record.date("DBA")).flatMap { $0 }.map { isExpired($0, today: today) } ?? true
                    caps.dataChecks.append(CapabilityResult(id: "expiry", credentialId: idCredential, decision: expired ? .REJECTED : .PASSED, reason: expired ? "EXPIRED" : nil))
                    let result = idResult(record)
                    outcome.idResult = result
                    if let filter = idParts.first?.filter {
                        caps.dataChecks.append(documentMatchesWorkflow(result, filter: filter, credentialId: idCredential))
                    }
                case .failure(let failure):
                    caps.extraction.append(CapabilityResult(id: "extraction-BARCODE", credentialId: idCredential, decision: .REJECTED, reason: failure.reason))
                }
            } else {
                caps.extraction.append(CapabilityResult(id: "extraction", credentialId: idCredential, decision: .NOT_EXECUTED, reason: "NO_MRZ_OR_CHIP_DATA"))
                requiredNotExecuted = true
            }
        }

        // Extraction only (Fastfill): the document's data, its checks and the chip's
        // authenticity are reported; no face is judged and nothing is decided.
        if extractionOnly {
            outcome.decision = .NOT_EXECUTED
            outcome.riskScore = 0
            outcome.capabilities = caps
            return outcome
        }

        let faceParts = parts.filter { $0.category == .FACEMAP }
        if let faceCredential = faceParts.first?.credentialId {
            let face = faceParts.first { $0.classifier == .face }
            let similarity: (decision: Decision, reason: String?) =
                if let face, let portrait { faces.similarity(portrait: portrait, face: [UInt8](face.body)) }
                else { (.NOT_EXECUTED, face == nil ? "NO_FACE_UPLOADED" : "NO_CHIP_PORTRAIT") }
            caps.similarity.append(CapabilityResult(id: "similarity", credentialId: faceCredential, decision: similarity.decision, reason: similarity.reason))
            let liveness = livenessCheck(faceParts, faces: faces)
            caps.liveness.append(CapabilityResult(id: "liveness", credentialId: faceCredential, decision: liveness.decision, reason: liveness.reason))
            let executed = similarity.decision != .NOT_EXECUTED && liveness.decision != .NOT_EXECUTED
            outcome.faceResult = FaceResult(
                passed: executed ? similarity.decision == .PASSED && liveness.decision == .PASSED : nil,
                extractionMethod: faceExtractionMethod(faceParts))
            if !executed { requiredNotExecuted = true }
        } else if definitionKey == 10013 {
            caps.similarity.append(CapabilityResult(id: "similarity", decision: .NOT_EXECUTED, reason: "NO_FACE_UPLOADED"))
            requiredNotExecuted = true
        }

        let documentParts = parts.filter { $0.category == .DOCUMENT }
        if let documentCredential = documentParts.first?.credentialId, let pages = documentPages(documentParts, credentialId: documentCredential) {
            caps.dataChecks.append(pages)
        }

        let all = caps.all
        if all.contains(where: { $0.decision == .REJECTED }) {
            outcome.decision = .REJECTED
            outcome.riskScore = 100
        } else if all.contains(where: { $0.decision == .WARNING }) || requiredNotExecuted {
            outcome.decision = .WARNING
            outcome.riskScore = 50
        } else {
            outcome.decision = .PASSED
            outcome.riskScore = 10
        }
        outcome.capabilities = caps
        return outcome
    }

    /// An Authentication (seed 004): the face image against the enrollment's face, and the
    /// liveness checks. It is yes or no: PASSED when both passed; REJECTED when either did
    /// not (a similarity in the review band is no authentication); NOT_EXECUTED when either
    /// could not run (no models, no face uploaded): the station reports M then.
    static func authenticate(
        parts: [StoredPart], enrollmentFace: [UInt8]?, imageQuality: ImageQualityThresholds, faces: any FaceVerifier
    ) -> Outcome {
        var outcome = Outcome()
        var caps = imageCapabilities(parts, thresholds: imageQuality)
        let faceParts = parts.filter { $0.category == .FACEMAP }
        let credentialId = faceParts.first?.credentialId
        let face = faceParts.first { $0.classifier == .face }
        var similarity: (decision: Decision, reason: String?) =
            if let face, let enrollmentFace { faces.similarity(portrait: enrollmentFace, face: [UInt8](face.body)) }
            else { (.NOT_EXECUTED, face == nil ? "NO_FACE_UPLOADED" : "NO_ENROLLMENT_FACE") }
        if similarity.reason == "NO_FACE_IN_PORTRAIT" { similarity.reason = "NO_FACE_IN_ENROLLMENT" }
        caps.similarity.append(CapabilityResult(id: "similarity", credentialId: credentialId, decision: similarity.decision, reason: similarity.reason))
        let liveness = livenessCheck(faceParts, faces: faces)
        caps.liveness.append(CapabilityResult(id: "liveness", credentialId: credentialId, decision: liveness.decision, reason: liveness.reason))
        let checks = [similarity.decision, liveness.decision]
        if checks.contains(.NOT_EXECUTED) {
            outcome.decision = .NOT_EXECUTED
            outcome.riskScore = 50
        } else if checks.allSatisfy({ $0 == .PASSED }) {
            outcome.decision = .PASSED
            outcome.riskScore = 10
        } else {
            outcome.decision = .REJECTED
            outcome.riskScore = 100
        }
        outcome.faceResult = FaceResult(
            passed: checks.contains(.NOT_EXECUTED) ? nil : outcome.decision == .PASSED,
            extractionMethod: faceExtractionMethod(faceParts))
        outcome.capabilities = caps
        return outcome
    }

    /// Every image part's usability, brightness and sharpness.
    static func imageCapabilities(_ parts: [StoredPart], thresholds: ImageQualityThresholds) -> WorkflowExecutionDetails.Capabilities {
        var caps = WorkflowExecutionDetails.Capabilities()
        for part in parts where part.classifier.isImage {
            let image = assessImage(part.classifier, body: part.body, credentialId: part.credentialId, thresholds: thresholds)
            caps.usability.append(image.usability)
            caps.imageChecks += [image.brightness, image.sharpness]
        }
        return caps
    }

    /// How the face was captured (the seeds' `extractionMethod`): `faceLiveness` when a
    /// liveness capture finished (its record, `LIVENESS`, came: the station sends it with the
    /// face image it ends with), else `faceManual`. Frames alone are a liveness capture that
    /// did not finish: the person then took the photo in the fallback mode.
    static func faceExtractionMethod(_ faceParts: [StoredPart]) -> String {
        faceParts.contains { $0.classifier == .livenessRecord } ? "faceLiveness" : "faceManual"
    }

    /// The liveness checks on the face credential's frames with the station's record.
    static func livenessCheck(_ faceParts: [StoredPart], faces: any FaceVerifier) -> (decision: Decision, reason: String?) {
        var frames: [Int: [UInt8]] = [:]
        for part in faceParts where part.classifier.rawValue.hasPrefix("LIVENESS_") {
            if let n = Int(part.classifier.rawValue.dropFirst("LIVENESS_".count)) { frames[n] = [UInt8](part.body) }
        }
        let record = faceParts.first { $0.classifier == .livenessRecord }
        if frames.isEmpty { return (.NOT_EXECUTED, "NO_LIVENESS_FRAMES") }
        guard let record else { return (.NOT_EXECUTED, "NO_LIVENESS_RECORD") }
        return faces.liveness(frames: frames, record: record.body)
    }

    /// The face of a finished verification an Authentication is compared with: its face
    /// image, else the portrait of its chip's DG2; nil when it holds neither.
    static func enrollmentFace(in parts: [StoredPart]) -> [UInt8]? {
        if let face = parts.first(where: { $0.category == .FACEMAP && $0.classifier == .face }) { return [UInt8](face.body) }
        guard let nfc = parts.first(where: { $0.category == .ID && $0.classifier == .nfc }),
            let chip = try? JSONDecoder().decode(ChipData.self, from: nfc.body), let dg2 = chip.dataGroups["DG2"]
        else { return nil }
        return (try? DataGroup2([UInt8](dg2)))?.faces.first?.imageData
    }

    /// Active and Chip Authentication as the station reports the chip answered them: only
    /// the chip can answer a challenge, so the backend cannot run them again, but it holds
    /// the report to the data groups. A failed check is a chip that does not hold the key
    /// its data groups name, a cloned chip: REJECTED. A chip without the check is recorded
    /// as NOT_EXECUTED, `NOT_SUPPORTED_BY_CHIP`, and does not lower the decision (many
    /// documents have neither). Active Authentication reported passed without a DG15 to
    /// verify it with is REJECTED (`NO_DG15`); DG15 uploaded but no report is
    /// `NOT_REPORTED`. Chip Authentication may rest on EF.CardSecurity (PACE-CAM), which is
    /// not uploaded, so its report is not held to DG14.
    static func chipChecks(_ chip: ChipData, credentialId: String) -> [CapabilityResult] {
        func result(_ id: String, _ check: ChipCheck?, failed: String, keyUploaded: Bool?) -> CapabilityResult {
            switch check?.outcome {
            case .PASSED?:
                if keyUploaded == false { return CapabilityResult(id: id, credentialId: credentialId, decision: .REJECTED, reason: "NO_DG15") }
                return CapabilityResult(id: id, credentialId: credentialId, decision: .PASSED, reason: "REPORTED_BY_STATION")
            case .FAILED?:
                return CapabilityResult(id: id, credentialId: credentialId, decision: .REJECTED, reason: failed)
            case .NOT_SUPPORTED?:
                return CapabilityResult(id: id, credentialId: credentialId, decision: .NOT_EXECUTED, reason: "NOT_SUPPORTED_BY_CHIP")
            case nil:
                return CapabilityResult(id: id, credentialId: credentialId, decision: .NOT_EXECUTED, reason: "NOT_REPORTED")
            }
        }
        let verification = chip.stationVerification
        return [
            result("activeAuthentication", verification.activeAuthentication, failed: "ACTIVE_AUTHENTICATION_FAILED", keyUploaded: chip.dataGroups["DG15"] != nil),
            result("chipAuthentication", verification.chipAuthentication, failed: "CHIP_AUTHENTICATION_FAILED", keyUploaded: nil),
        ]
    }

    /// The document must be one the workflow's credential filter accepts.
    static func documentMatchesWorkflow(_ result: IDResult, filter: CredentialFilter, credentialId: String) -> CapabilityResult {
        if let countries = filter.country?.values, !countries.isEmpty, !countries.contains(result.issuingCountry ?? "") {
            return CapabilityResult(id: "documentMatchesWorkflow", credentialId: credentialId, decision: .REJECTED, reason: "COUNTRY_NOT_ACCEPTED")
        }
        if let types = filter.type?.values, !types.isEmpty, let type = result.idType, !types.contains(type) {
            return CapabilityResult(id: "documentMatchesWorkflow", credentialId: credentialId, decision: .REJECTED, reason: "DOCUMENT_TYPE_NOT_ACCEPTED")
        }
        return CapabilityResult(id: "documentMatchesWorkflow", credentialId: credentialId, decision: .PASSED)
    }

    // MARK: Helpers

    /// The MRZ in DG1: template 0x61 holding 0x5F1F.
    static func mrzText(fromDG1 dg1: Data) -> String? {
        guard let template = try? TLV.parse([UInt8](dg1)), template.tag == 0x61, let mrz = template.child(0x5F1F) else { return nil }
        return String(decoding: mrz.value, as: UTF8.self)
    }

    static func lines(of text: String) -> [String] {
        let compact = text.filter { !$0.isWhitespace }
        let width = compact.count == 90 ? 30 : compact.count == 72 ? 36 : 44
        var result: [String] = []
        var rest = Substring(compact)
        while !rest.isEmpty {
            result.append(String(rest.prefix(width)))
            rest = rest.dropFirst(width)
        }
        return result
    }

    static func reason(for error: MRZError) -> String {
        switch error {
        case .checkDigitMismatch: "MRZ_CHECK_DIGIT"
        case .unrecognizedLayout: "MRZ_LAYOUT"
        case .invalidCharacter: "MRZ_CHARACTER"
        case .invalidField: "MRZ_FIELD"
        }
    }

    static func utcYear(_ date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: date)
    }

    /// `YYMMDD` to `YYYY-MM-DD`: expiry dates are 20YY; birth dates are the latest century not in the future.
    static func isoDate(_ yymmdd: String, expiry: Bool, today: Date) -> String? {
        guard yymmdd.count == 6, yymmdd.allSatisfy(\.isNumber), let yy = Int(yymmdd.prefix(2)) else { return nil }
        var year = 2000 + yy
        if !expiry, year > utcYear(today) { year -= 100 }
        return "\(year)-\(yymmdd.dropFirst(2).prefix(2))-\(yymmdd.suffix(2))"
    }

    static func isExpired(_ expiry: String, today: Date) -> Bool {
        guard let iso = isoDate(expiry, expiry: true, today: today) else { return true }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        guard let date = formatter.date(from: iso) else { return true }
        // Valid through the whole expiry day.
        return date.addingTimeInterval(86_400) <= today
    }

    /// The chip's additional details (DG11, DG12) in the result, where the chip has them:
    /// the date of issue, place of birth, address (its first part, the street) and city (its
    /// second part), cut to the seeds' lengths, the full date of birth (instead of the MRZ's two-digit year) and the
    /// personal number when the MRZ has none. A data group that does not parse adds
    /// nothing; passive authentication decides whether the chip is to be believed.
    static func addDetails(of chip: ChipData, to result: inout IDResult) {
        if let bytes = chip.dataGroups["DG11"], let details = try? DataGroup11([UInt8](bytes)) {
            // The seeds' lengths: place of birth 255, address and city 64.
            result.placeOfBirth = details.placeOfBirth.flatMap { joined(parts(of: $0)) }.map { String($0.prefix(255)) }
            let address = details.address.map(parts(of:)) ?? []
            result.address = address.first.map { String($0.prefix(64)) }
            result.city = address.count > 1 ? String(address[1].prefix(64)) : nil
            if let full = details.fullDateOfBirth.flatMap(isoDate(yyyymmdd:)) { result.dateOfBirth = full }
            if result.personalNumber == nil, let number = details.personalNumber, !number.isEmpty { result.personalNumber = number }
        }
        if let bytes = chip.dataGroups["DG12"], let details = try? DataGroup12([UInt8](bytes)) {
            result.issuingDate = details.dateOfIssue.flatMap(isoDate(yyyymmdd:))
            result.issuingAuthority = details.issuingAuthority.flatMap { joined(parts(of: $0)) }
        }
    }

    /// The parts of a DG11/DG12 field separated by `<`, trimmed, empty ones dropped.
    static func parts(of field: String) -> [String] {
        field.split(separator: "<").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func joined(_ parts: [String]) -> String? { parts.isEmpty ? nil : parts.joined(separator: ", ") }

    /// `YYYYMMDD` to `YYYY-MM-DD`; nil when it is not a date.
    static func isoDate(yyyymmdd: String) -> String? {
        guard yyyymmdd.count == 8, yyyymmdd.allSatisfy(\.isASCII), yyyymmdd.allSatisfy(\.isNumber),
            let month = Int(yyyymmdd.dropFirst(4).prefix(2)), let day = Int(yyyymmdd.suffix(2)), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return "\(yyyymmdd.prefix(4))-\(yyyymmdd.dropFirst(4).prefix(2))-\(yyyymmdd.suffix(2))"
    }

    static func idResult(_ mrz: MRZ, lines: [String], method: String, today: Date) -> IDResult {
        var result = IDResult()
        result.issuingCountry = mrz.issuingState
        switch mrz.documentCode.first {
        case "P": result.idType = .PASSPORT
        case "V": result.idType = .VISA
        default: result.idType = .ID_CARD
        }
        result.idSubType = mrz.format.rawValue
        result.lastName = mrz.name.primaryIdentifier
        result.firstName = mrz.name.secondaryIdentifier
        result.dateOfBirth = isoDate(mrz.birthDate, expiry: false, today: today)
        result.expiryDate = isoDate(mrz.expiryDate, expiry: true, today: today)
        result.documentNumber = mrz.documentNumber
        result.personalNumber = mrz.optionalData.isEmpty ? nil : mrz.optionalData
        result.gender = mrz.sex.rawValue
        result.nationality = mrz.nationality
        result.mrzLine1 = lines.count > 0 ? lines[0] : nil
        result.mrzLine2 = lines.count > 1 ? lines[1] : nil
        result.mrzLine3 = lines.count > 2 ? lines[2] : nil
        result.extractionMethod = method
        return result
    }
}

// MARK: Barcode (AAMVA)

extension ReferenceChecks {
    /// Why a BARCODE part is unusable: its reason code.
    struct BarcodeFailure: Error {
        var reason: String
    }

    /// The AAMVA record of a BARCODE part, parsed again here (the station's reading is not trusted).
    static func barcodeRecord(_ body: Data) -> Result<AAMVARecord, BarcodeFailure> {
        guard let data = try? JSONDecoder().decode(BarcodeData.self, from: body) else { return .failure(BarcodeFailure(reason: "BARCODE_DATA_INVALID")) }
        guard data.format == "PDF417" else { return .failure(BarcodeFailure(reason: "BARCODE_FORMAT")) }
        do {
            return .success(try AAMVARecord([UInt8](data.data)).validated())
        } catch {
            return .failure(BarcodeFailure(reason: reason(for: error)))
        }
    }

    static func reason(for error: AAMVAError) -> String {
        switch error {
        case .notAAMVA: "BARCODE_NOT_AAMVA"
        case .truncatedHeader, .invalidHeader, .subfileOutOfRange, .tooLong, .invalidElement: "AAMVA_LAYOUT"
        case .noDocumentSubfile, .missingElement: "AAMVA_FIELD_MISSING"
        case .invalidDate: "AAMVA_DATE"
        }
    }

    static func isExpired(_ expiry: AAMVADate, today: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = calendar.dateComponents([.year, .month, .day], from: today)
        // Valid through the whole expiry day.
        return (expiry.year, expiry.month, expiry.day) < (now.year ?? 0, now.month ?? 0, now.day ?? 0)
    }

    /// The seeds' IDResult from an AAMVA record: the document's fields and its address.
    static func idResult(_ record: AAMVARecord) -> IDResult {
        var result = IDResult()
        result.idType = record.documentKind == .drivingLicense ? .DRIVING_LICENSE : .ID_CARD
        result.idSubType = "AAMVA_\(record.documentKind.rawValue)"
        // The IDResult's lengths (docs/backend-api.yaml), whatever a record holds.
        func limit(_ value: String?, _ length: Int) -> String? { value.map { String($0.prefix(length)) } }
        result.lastName = limit(record.familyName, 100)
        result.firstName = limit(record.firstName, 100)
        result.dateOfBirth = (try? record.date("DBB")).flatMap { $0 }?.iso8601
        result.expiryDate = (try? record.date("DBA")).flatMap { $0 }?.iso8601
        result.issuingDate = (try? record.date("DBD")).flatMap { $0 }?.iso8601
        result.documentNumber = limit(record.documentNumber, 100)
        result.gender = record.sex
        result.country = limit(record.country, 3)
        result.issuingCountry = result.country
        result.address = limit(record.street, 64)
        result.city = limit(record.city, 64)
        result.subdivision = limit(record.jurisdiction, 3)
        result.postalCode = limit(record.postalCode, 15)
        result.extractionMethod = "barcode"
        return result
    }
}
