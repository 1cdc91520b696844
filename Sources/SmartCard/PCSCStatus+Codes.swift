// The PC/SC return codes of pcsc-lite, each named by its C constant.

import CPCSCLite

extension PCSCStatus {
    /// `SCARD_F_INTERNAL_ERROR`: An internal consistency check failed.
    public static let internalError = PCSCStatus(rawValue: Int(SCARD_F_INTERNAL_ERROR))
    /// `SCARD_E_CANCELLED`: The action was cancelled by an SCardCancel request.
    public static let cancelled = PCSCStatus(rawValue: Int(SCARD_E_CANCELLED))
    /// `SCARD_E_INVALID_HANDLE`: The supplied handle was invalid.
    public static let invalidHandle = PCSCStatus(rawValue: Int(SCARD_E_INVALID_HANDLE))
    /// `SCARD_E_INVALID_PARAMETER`: One or more of the supplied parameters could not be properly interpreted.
    public static let invalidParameter = PCSCStatus(rawValue: Int(SCARD_E_INVALID_PARAMETER))
    /// `SCARD_E_INVALID_TARGET`: Registry startup information is missing or invalid.
    public static let invalidTarget = PCSCStatus(rawValue: Int(SCARD_E_INVALID_TARGET))
    /// `SCARD_E_NO_MEMORY`: Not enough memory available to complete this command.
    public static let noMemory = PCSCStatus(rawValue: Int(SCARD_E_NO_MEMORY))
    /// `SCARD_F_WAITED_TOO_LONG`: An internal consistency timer has expired.
    public static let waitedTooLong = PCSCStatus(rawValue: Int(SCARD_F_WAITED_TOO_LONG))
    /// `SCARD_E_INSUFFICIENT_BUFFER`: The data buffer to receive returned data is too small for the returned data.
    public static let insufficientBuffer = PCSCStatus(rawValue: Int(SCARD_E_INSUFFICIENT_BUFFER))
    /// `SCARD_E_UNKNOWN_READER`: The specified reader name is not recognized.
    public static let unknownReader = PCSCStatus(rawValue: Int(SCARD_E_UNKNOWN_READER))
    /// `SCARD_E_TIMEOUT`: The user-specified timeout value has expired.
    public static let timeout = PCSCStatus(rawValue: Int(SCARD_E_TIMEOUT))
    /// `SCARD_E_SHARING_VIOLATION`: The smart card cannot be accessed because of other connections outstanding.
    public static let sharingViolation = PCSCStatus(rawValue: Int(SCARD_E_SHARING_VIOLATION))
    /// `SCARD_E_NO_SMARTCARD`: The operation requires a Smart Card, but no Smart Card is currently in the device.
    public static let noSmartcard = PCSCStatus(rawValue: Int(SCARD_E_NO_SMARTCARD))
    /// `SCARD_E_UNKNOWN_CARD`: The specified smart card name is not recognized.
    public static let unknownCard = PCSCStatus(rawValue: Int(SCARD_E_UNKNOWN_CARD))
    /// `SCARD_E_CANT_DISPOSE`: The system could not dispose of the media in the requested manner.
    public static let cantDispose = PCSCStatus(rawValue: Int(SCARD_E_CANT_DISPOSE))
    /// `SCARD_E_PROTO_MISMATCH`: The requested protocols are incompatible with the protocol currently in use with the smart card.
    public static let protoMismatch = PCSCStatus(rawValue: Int(SCARD_E_PROTO_MISMATCH))
    /// `SCARD_E_NOT_READY`: The reader or smart card is not ready to accept commands.
    public static let notReady = PCSCStatus(rawValue: Int(SCARD_E_NOT_READY))
    /// `SCARD_E_INVALID_VALUE`: One or more of the supplied parameters values could not be properly interpreted.
    public static let invalidValue = PCSCStatus(rawValue: Int(SCARD_E_INVALID_VALUE))
    /// `SCARD_E_SYSTEM_CANCELLED`: The action was cancelled by the system, presumably to log off or shut down.
    public static let systemCancelled = PCSCStatus(rawValue: Int(SCARD_E_SYSTEM_CANCELLED))
    /// `SCARD_F_COMM_ERROR`: An internal communications error has been detected.
    public static let commError = PCSCStatus(rawValue: Int(SCARD_F_COMM_ERROR))
    /// `SCARD_F_UNKNOWN_ERROR`: An internal error has been detected, but the source is unknown.
    public static let unknownError = PCSCStatus(rawValue: Int(SCARD_F_UNKNOWN_ERROR))
    /// `SCARD_E_INVALID_ATR`: An ATR obtained from the registry is not a valid ATR string.
    public static let invalidAtr = PCSCStatus(rawValue: Int(SCARD_E_INVALID_ATR))
    /// `SCARD_E_NOT_TRANSACTED`: An attempt was made to end a non-existent transaction.
    public static let notTransacted = PCSCStatus(rawValue: Int(SCARD_E_NOT_TRANSACTED))
    /// `SCARD_E_READER_UNAVAILABLE`: The specified reader is not currently available for use.
    public static let readerUnavailable = PCSCStatus(rawValue: Int(SCARD_E_READER_UNAVAILABLE))
    /// `SCARD_P_SHUTDOWN`: The operation has been aborted to allow the server application to exit.
    public static let shutdown = PCSCStatus(rawValue: Int(SCARD_P_SHUTDOWN))
    /// `SCARD_E_PCI_TOO_SMALL`: The PCI Receive buffer was too small.
    public static let pciTooSmall = PCSCStatus(rawValue: Int(SCARD_E_PCI_TOO_SMALL))
    /// `SCARD_E_READER_UNSUPPORTED`: The reader driver does not meet minimal requirements for support.
    public static let readerUnsupported = PCSCStatus(rawValue: Int(SCARD_E_READER_UNSUPPORTED))
    /// `SCARD_E_DUPLICATE_READER`: The reader driver did not produce a unique reader name.
    public static let duplicateReader = PCSCStatus(rawValue: Int(SCARD_E_DUPLICATE_READER))
    /// `SCARD_E_CARD_UNSUPPORTED`: The smart card does not meet minimal requirements for support.
    public static let cardUnsupported = PCSCStatus(rawValue: Int(SCARD_E_CARD_UNSUPPORTED))
    /// `SCARD_E_NO_SERVICE`: The Smart card resource manager is not running.
    public static let noService = PCSCStatus(rawValue: Int(SCARD_E_NO_SERVICE))
    /// `SCARD_E_SERVICE_STOPPED`: The Smart card resource manager has shut down.
    public static let serviceStopped = PCSCStatus(rawValue: Int(SCARD_E_SERVICE_STOPPED))
    /// `SCARD_E_UNEXPECTED`: An unexpected card error has occurred.
    public static let unexpected = PCSCStatus(rawValue: Int(SCARD_E_UNEXPECTED))
    /// `SCARD_E_UNSUPPORTED_FEATURE`: This smart card does not support the requested feature.
    public static let unsupportedFeature = PCSCStatus(rawValue: Int(SCARD_E_UNSUPPORTED_FEATURE))
    /// `SCARD_E_ICC_INSTALLATION`: No primary provider can be found for the smart card.
    public static let iccInstallation = PCSCStatus(rawValue: Int(SCARD_E_ICC_INSTALLATION))
    /// `SCARD_E_ICC_CREATEORDER`: The requested order of object creation is not supported.
    public static let iccCreateorder = PCSCStatus(rawValue: Int(SCARD_E_ICC_CREATEORDER))
    /// `SCARD_E_DIR_NOT_FOUND`: The identified directory does not exist in the smart card.
    public static let dirNotFound = PCSCStatus(rawValue: Int(SCARD_E_DIR_NOT_FOUND))
    /// `SCARD_E_FILE_NOT_FOUND`: The identified file does not exist in the smart card.
    public static let fileNotFound = PCSCStatus(rawValue: Int(SCARD_E_FILE_NOT_FOUND))
    /// `SCARD_E_NO_DIR`: The supplied path does not represent a smart card directory.
    public static let noDir = PCSCStatus(rawValue: Int(SCARD_E_NO_DIR))
    /// `SCARD_E_NO_FILE`: The supplied path does not represent a smart card file.
    public static let noFile = PCSCStatus(rawValue: Int(SCARD_E_NO_FILE))
    /// `SCARD_E_NO_ACCESS`: Access is denied to this file.
    public static let noAccess = PCSCStatus(rawValue: Int(SCARD_E_NO_ACCESS))
    /// `SCARD_E_WRITE_TOO_MANY`: The smart card does not have enough memory to store the information.
    public static let writeTooMany = PCSCStatus(rawValue: Int(SCARD_E_WRITE_TOO_MANY))
    /// `SCARD_E_BAD_SEEK`: There was an error trying to set the smart card file object pointer.
    public static let badSeek = PCSCStatus(rawValue: Int(SCARD_E_BAD_SEEK))
    /// `SCARD_E_INVALID_CHV`: The supplied PIN is incorrect.
    public static let invalidChv = PCSCStatus(rawValue: Int(SCARD_E_INVALID_CHV))
    /// `SCARD_E_UNKNOWN_RES_MNG`: An unrecognized error code was returned from a layered component.
    public static let unknownResMng = PCSCStatus(rawValue: Int(SCARD_E_UNKNOWN_RES_MNG))
    /// `SCARD_E_NO_SUCH_CERTIFICATE`: The requested certificate does not exist.
    public static let noSuchCertificate = PCSCStatus(rawValue: Int(SCARD_E_NO_SUCH_CERTIFICATE))
    /// `SCARD_E_CERTIFICATE_UNAVAILABLE`: The requested certificate could not be obtained.
    public static let certificateUnavailable = PCSCStatus(rawValue: Int(SCARD_E_CERTIFICATE_UNAVAILABLE))
    /// `SCARD_E_NO_READERS_AVAILABLE`: Cannot find a smart card reader.
    public static let noReadersAvailable = PCSCStatus(rawValue: Int(SCARD_E_NO_READERS_AVAILABLE))
    /// `SCARD_E_COMM_DATA_LOST`: A communications error with the smart card has been detected. Retry the operation.
    public static let commDataLost = PCSCStatus(rawValue: Int(SCARD_E_COMM_DATA_LOST))
    /// `SCARD_E_NO_KEY_CONTAINER`: The requested key container does not exist on the smart card.
    public static let noKeyContainer = PCSCStatus(rawValue: Int(SCARD_E_NO_KEY_CONTAINER))
    /// `SCARD_E_SERVER_TOO_BUSY`: The Smart Card Resource Manager is too busy to complete this operation.
    public static let serverTooBusy = PCSCStatus(rawValue: Int(SCARD_E_SERVER_TOO_BUSY))
    /// `SCARD_W_UNSUPPORTED_CARD`: The reader cannot communicate with the card, due to ATR string configuration conflicts.
    public static let unsupportedCard = PCSCStatus(rawValue: Int(SCARD_W_UNSUPPORTED_CARD))
    /// `SCARD_W_UNRESPONSIVE_CARD`: The smart card is not responding to a reset.
    public static let unresponsiveCard = PCSCStatus(rawValue: Int(SCARD_W_UNRESPONSIVE_CARD))
    /// `SCARD_W_UNPOWERED_CARD`: Power has been removed from the smart card, so that further communication is not possible.
    public static let unpoweredCard = PCSCStatus(rawValue: Int(SCARD_W_UNPOWERED_CARD))
    /// `SCARD_W_RESET_CARD`: The smart card has been reset, so any shared state information is invalid.
    public static let resetCard = PCSCStatus(rawValue: Int(SCARD_W_RESET_CARD))
    /// `SCARD_W_REMOVED_CARD`: The smart card has been removed, so further communication is not possible.
    public static let removedCard = PCSCStatus(rawValue: Int(SCARD_W_REMOVED_CARD))
    /// `SCARD_W_SECURITY_VIOLATION`: Access was denied because of a security violation.
    public static let securityViolation = PCSCStatus(rawValue: Int(SCARD_W_SECURITY_VIOLATION))
    /// `SCARD_W_WRONG_CHV`: The card cannot be accessed because the wrong PIN was presented.
    public static let wrongChv = PCSCStatus(rawValue: Int(SCARD_W_WRONG_CHV))
    /// `SCARD_W_CHV_BLOCKED`: The card cannot be accessed because the maximum number of PIN entry attempts has been reached.
    public static let chvBlocked = PCSCStatus(rawValue: Int(SCARD_W_CHV_BLOCKED))
    /// `SCARD_W_EOF`: The end of the smart card file has been reached.
    public static let eof = PCSCStatus(rawValue: Int(SCARD_W_EOF))
    /// `SCARD_W_CANCELLED_BY_USER`: The user pressed "Cancel" on a Smart Card Selection Dialog.
    public static let cancelledByUser = PCSCStatus(rawValue: Int(SCARD_W_CANCELLED_BY_USER))
    /// `SCARD_W_CARD_NOT_AUTHENTICATED`: No PIN was presented to the smart card.
    public static let cardNotAuthenticated = PCSCStatus(rawValue: Int(SCARD_W_CARD_NOT_AUTHENTICATED))

    static let known: [PCSCStatus: (name: String, message: String, retryable: Bool)] = [
        .success: ("SCARD_S_SUCCESS", "No error was encountered.", false),
        .internalError: ("SCARD_F_INTERNAL_ERROR", "An internal consistency check failed.", false),
        .cancelled: ("SCARD_E_CANCELLED", "The action was cancelled by an SCardCancel request.", true),
        .invalidHandle: ("SCARD_E_INVALID_HANDLE", "The supplied handle was invalid.", false),
        .invalidParameter: ("SCARD_E_INVALID_PARAMETER", "One or more of the supplied parameters could not be properly interpreted.", false),
        .invalidTarget: ("SCARD_E_INVALID_TARGET", "Registry startup information is missing or invalid.", false),
        .noMemory: ("SCARD_E_NO_MEMORY", "Not enough memory available to complete this command.", false),
        .waitedTooLong: ("SCARD_F_WAITED_TOO_LONG", "An internal consistency timer has expired.", true),
        .insufficientBuffer: ("SCARD_E_INSUFFICIENT_BUFFER", "The data buffer to receive returned data is too small for the returned data.", false),
        .unknownReader: ("SCARD_E_UNKNOWN_READER", "The specified reader name is not recognized.", true),
        .timeout: ("SCARD_E_TIMEOUT", "The user-specified timeout value has expired.", true),
        .sharingViolation: ("SCARD_E_SHARING_VIOLATION", "The smart card cannot be accessed because of other connections outstanding.", true),
        .noSmartcard: ("SCARD_E_NO_SMARTCARD", "The operation requires a Smart Card, but no Smart Card is currently in the device.", true),
        .unknownCard: ("SCARD_E_UNKNOWN_CARD", "The specified smart card name is not recognized.", false),
        .cantDispose: ("SCARD_E_CANT_DISPOSE", "The system could not dispose of the media in the requested manner.", false),
        .protoMismatch: ("SCARD_E_PROTO_MISMATCH", "The requested protocols are incompatible with the protocol currently in use with the smart card.", false),
        .notReady: ("SCARD_E_NOT_READY", "The reader or smart card is not ready to accept commands.", true),
        .invalidValue: ("SCARD_E_INVALID_VALUE", "One or more of the supplied parameters values could not be properly interpreted.", false),
        .systemCancelled: ("SCARD_E_SYSTEM_CANCELLED", "The action was cancelled by the system, presumably to log off or shut down.", true),
        .commError: ("SCARD_F_COMM_ERROR", "An internal communications error has been detected.", true),
        .unknownError: ("SCARD_F_UNKNOWN_ERROR", "An internal error has been detected, but the source is unknown.", false),
        .invalidAtr: ("SCARD_E_INVALID_ATR", "An ATR obtained from the registry is not a valid ATR string.", false),
        .notTransacted: ("SCARD_E_NOT_TRANSACTED", "An attempt was made to end a non-existent transaction.", true),
        .readerUnavailable: ("SCARD_E_READER_UNAVAILABLE", "The specified reader is not currently available for use.", true),
        .shutdown: ("SCARD_P_SHUTDOWN", "The operation has been aborted to allow the server application to exit.", false),
        .pciTooSmall: ("SCARD_E_PCI_TOO_SMALL", "The PCI Receive buffer was too small.", false),
        .readerUnsupported: ("SCARD_E_READER_UNSUPPORTED", "The reader driver does not meet minimal requirements for support.", false),
        .duplicateReader: ("SCARD_E_DUPLICATE_READER", "The reader driver did not produce a unique reader name.", false),
        .cardUnsupported: ("SCARD_E_CARD_UNSUPPORTED", "The smart card does not meet minimal requirements for support.", false),
        .noService: ("SCARD_E_NO_SERVICE", "The Smart card resource manager is not running.", true),
        .serviceStopped: ("SCARD_E_SERVICE_STOPPED", "The Smart card resource manager has shut down.", true),
        // SCARD_E_UNEXPECTED shares 0x8010001F with SCARD_E_UNSUPPORTED_FEATURE, which pcsc-lite returns.
        .unsupportedFeature: ("SCARD_E_UNSUPPORTED_FEATURE", "This smart card does not support the requested feature.", false),
        .iccInstallation: ("SCARD_E_ICC_INSTALLATION", "No primary provider can be found for the smart card.", false),
        .iccCreateorder: ("SCARD_E_ICC_CREATEORDER", "The requested order of object creation is not supported.", false),
        .dirNotFound: ("SCARD_E_DIR_NOT_FOUND", "The identified directory does not exist in the smart card.", false),
        .fileNotFound: ("SCARD_E_FILE_NOT_FOUND", "The identified file does not exist in the smart card.", false),
        .noDir: ("SCARD_E_NO_DIR", "The supplied path does not represent a smart card directory.", false),
        .noFile: ("SCARD_E_NO_FILE", "The supplied path does not represent a smart card file.", false),
        .noAccess: ("SCARD_E_NO_ACCESS", "Access is denied to this file.", false),
        .writeTooMany: ("SCARD_E_WRITE_TOO_MANY", "The smart card does not have enough memory to store the information.", false),
        .badSeek: ("SCARD_E_BAD_SEEK", "There was an error trying to set the smart card file object pointer.", false),
        .invalidChv: ("SCARD_E_INVALID_CHV", "The supplied PIN is incorrect.", false),
        .unknownResMng: ("SCARD_E_UNKNOWN_RES_MNG", "An unrecognized error code was returned from a layered component.", false),
        .noSuchCertificate: ("SCARD_E_NO_SUCH_CERTIFICATE", "The requested certificate does not exist.", false),
        .certificateUnavailable: ("SCARD_E_CERTIFICATE_UNAVAILABLE", "The requested certificate could not be obtained.", false),
        .noReadersAvailable: ("SCARD_E_NO_READERS_AVAILABLE", "Cannot find a smart card reader.", true),
        .commDataLost: ("SCARD_E_COMM_DATA_LOST", "A communications error with the smart card has been detected. Retry the operation.", true),
        .noKeyContainer: ("SCARD_E_NO_KEY_CONTAINER", "The requested key container does not exist on the smart card.", false),
        .serverTooBusy: ("SCARD_E_SERVER_TOO_BUSY", "The Smart Card Resource Manager is too busy to complete this operation.", true),
        .unsupportedCard: ("SCARD_W_UNSUPPORTED_CARD", "The reader cannot communicate with the card, due to ATR string configuration conflicts.", false),
        .unresponsiveCard: ("SCARD_W_UNRESPONSIVE_CARD", "The smart card is not responding to a reset.", true),
        .unpoweredCard: ("SCARD_W_UNPOWERED_CARD", "Power has been removed from the smart card, so that further communication is not possible.", true),
        .resetCard: ("SCARD_W_RESET_CARD", "The smart card has been reset, so any shared state information is invalid.", true),
        .removedCard: ("SCARD_W_REMOVED_CARD", "The smart card has been removed, so further communication is not possible.", true),
        .securityViolation: ("SCARD_W_SECURITY_VIOLATION", "Access was denied because of a security violation.", false),
        .wrongChv: ("SCARD_W_WRONG_CHV", "The card cannot be accessed because the wrong PIN was presented.", false),
        .chvBlocked: ("SCARD_W_CHV_BLOCKED", "The card cannot be accessed because the maximum number of PIN entry attempts has been reached.", false),
        .eof: ("SCARD_W_EOF", "The end of the smart card file has been reached.", false),
        .cancelledByUser: ("SCARD_W_CANCELLED_BY_USER", "The user pressed \"Cancel\" on a Smart Card Selection Dialog.", false),
        .cardNotAuthenticated: ("SCARD_W_CARD_NOT_AUTHENTICATED", "No PIN was presented to the smart card.", false),
    ]
}
