/// Why a virtual card could not reach its reader.
public enum VirtualCardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens on the vpcd port: pcscd is not running with the vpcd driver.
    case readerNotListening(host: String, port: UInt16, SystemCallError)
    case connectionFailed(SystemCallError)

    public var description: String {
        switch self {
        case .readerNotListening(let host, let port, let cause):
            return "no virtual reader listens on \(host):\(port) (\(cause)); start pcscd with the vpcd driver: scripts/pcscd-vpcd.sh start"
        case .connectionFailed(let cause):
            return "virtual card connection failed: \(cause)"
        }
    }
}
