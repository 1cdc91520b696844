import ArgumentParser

struct VersionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the version of idkiosk.")

    @OptionGroup var global: GlobalOptions

    struct Info: Encodable {
        var name = "idkiosk"
        var version = BuildInfo.version
        var swift: String
    }

    func run() async throws {
        #if swift(>=6.3)
            let swift = "6.3 or later"
        #else
            let swift = "6.x"
        #endif
        let info = Info(swift: swift)
        if global.json {
            try Output.json(info)
        } else {
            Output.text(["idkiosk \(info.version) (Swift \(info.swift))"])
        }
    }
}
