// The JSON form of steps and updates: an object whose "name" is the case and whose other
// keys are its payload, so a Custom UI switches on one string (docs/events.md).

extension Scan.Step: Codable {
    private enum Name: String, Codable {
        case prepare, started, scanView, digitalIdentityView, thirdPartyVerification, imageTaken, processing
        case confirmationView, rejectView, retry, canFinish, addonScanPart, nextPart, chipKeyView
    }

    private enum CodingKeys: String, CodingKey {
        case name, part, mode, reasons, code, message, reason
    }

    /// One reject reason of the reject view, as an array element (a JSON object cannot have enum keys).
    private struct Rejection: Codable {
        var part: Credential.Part
        var code: Int
        var message: String
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .prepare(let part), .digitalIdentityView(let part), .thirdPartyVerification(let part), .imageTaken(let part),
            .processing(let part), .confirmationView(let part), .canFinish(let part), .addonScanPart(let part),
            .nextPart(let part):
            try container.encode(name, forKey: .name)
            try container.encode(part, forKey: .part)
        case .started(let part, let mode), .scanView(let part, let mode):
            try container.encode(name, forKey: .name)
            try container.encode(part, forKey: .part)
            try container.encode(mode, forKey: .mode)
        case .rejectView(let reasons):
            try container.encode(Name.rejectView, forKey: .name)
            let rejections = reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                Rejection(part: $0.key, code: $0.value.code, message: $0.value.message)
            }
            try container.encode(rejections, forKey: .reasons)
        case .chipKeyView(let part, let reason):
            try container.encode(Name.chipKeyView, forKey: .name)
            try container.encode(part, forKey: .part)
            try container.encode(reason, forKey: .reason)
        case .retry(let part, let reason):
            try container.encode(Name.retry, forKey: .name)
            try container.encode(part, forKey: .part)
            try container.encode(reason.code, forKey: .code)
            try container.encode(reason.message, forKey: .message)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func part() throws -> Credential.Part { try container.decode(Credential.Part.self, forKey: .part) }
        func mode() throws -> Scan.Mode { try container.decode(Scan.Mode.self, forKey: .mode) }
        switch try container.decode(Name.self, forKey: .name) {
        case .prepare: self = .prepare(try part())
        case .started: self = .started(try part(), try mode())
        case .scanView: self = .scanView(try part(), try mode())
        case .digitalIdentityView: self = .digitalIdentityView(try part())
        case .thirdPartyVerification: self = .thirdPartyVerification(try part())
        case .imageTaken: self = .imageTaken(try part())
        case .processing: self = .processing(try part())
        case .confirmationView: self = .confirmationView(try part())
        case .canFinish: self = .canFinish(try part())
        case .addonScanPart: self = .addonScanPart(try part())
        case .nextPart: self = .nextPart(try part())
        case .chipKeyView: self = .chipKeyView(try part(), try container.decode(Scan.ChipKeyReason.self, forKey: .reason))
        case .retry:
            let reason = Retry.Reason(
                code: try container.decode(Int.self, forKey: .code),
                message: try container.decode(String.self, forKey: .message)
            )
            self = .retry(try part(), reason)
        case .rejectView:
            var reasons: [Credential.Part: RejectReason] = [:]
            for rejection in try container.decode([Rejection].self, forKey: .reasons) {
                guard let reason = RejectReason(rawValue: rejection.code) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .reasons,
                        in: container,
                        debugDescription: "unknown reject reason \(rejection.code)"
                    )
                }
                reasons[rejection.part] = reason
            }
            self = .rejectView(reasons)
        }
    }

    private var name: Name {
        switch self {
        case .prepare: .prepare
        case .started: .started
        case .scanView: .scanView
        case .digitalIdentityView: .digitalIdentityView
        case .thirdPartyVerification: .thirdPartyVerification
        case .imageTaken: .imageTaken
        case .processing: .processing
        case .confirmationView: .confirmationView
        case .rejectView: .rejectView
        case .retry: .retry
        case .canFinish: .canFinish
        case .addonScanPart: .addonScanPart
        case .nextPart: .nextPart
        case .chipKeyView: .chipKeyView
        }
    }
}

extension Scan.Update: Codable {
    private enum Name: String, Codable {
        case fallback, nfcExtractionStarted, nfcExtractionProgress, nfcExtractionFinished, extractionState, flash
        case nextPosition, cameraAvailable, legalHint
    }

    private enum StateName: String, Codable {
        case centerId, tooClose, moveCloser, holdStraight, holdStill, tilt, centerFace, levelEyesAndDevice, tiltFace
    }

    private enum CodingKeys: String, CodingKey {
        case name, reason, percent, state, current, target, direction, available, text, taken, maximum
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .fallback(let reason):
            try container.encode(Name.fallback, forKey: .name)
            try container.encode(reason, forKey: .reason)
        case .nfcExtractionStarted:
            try container.encode(Name.nfcExtractionStarted, forKey: .name)
        case .nfcExtractionProgress(let percent):
            try container.encode(Name.nfcExtractionProgress, forKey: .name)
            try container.encode(percent, forKey: .percent)
        case .nfcExtractionFinished:
            try container.encode(Name.nfcExtractionFinished, forKey: .name)
        case .extractionState(let state):
            try container.encode(Name.extractionState, forKey: .name)
            switch state {
            case .centerId: try container.encode(StateName.centerId, forKey: .state)
            case .tooClose: try container.encode(StateName.tooClose, forKey: .state)
            case .moveCloser: try container.encode(StateName.moveCloser, forKey: .state)
            case .holdStraight: try container.encode(StateName.holdStraight, forKey: .state)
            case .holdStill: try container.encode(StateName.holdStill, forKey: .state)
            case .centerFace: try container.encode(StateName.centerFace, forKey: .state)
            case .levelEyesAndDevice: try container.encode(StateName.levelEyesAndDevice, forKey: .state)
            case .tilt(let current, let target):
                try container.encode(StateName.tilt, forKey: .state)
                try container.encode(current, forKey: .current)
                try container.encode(target, forKey: .target)
            case .tiltFace(let direction):
                try container.encode(StateName.tiltFace, forKey: .state)
                try container.encode(direction, forKey: .direction)
            }
        case .flash(let state):
            try container.encode(Name.flash, forKey: .name)
            try container.encode(state, forKey: .state)
        case .nextPosition(let count):
            try container.encode(Name.nextPosition, forKey: .name)
            try container.encodeIfPresent(count?.taken, forKey: .taken)
            try container.encodeIfPresent(count?.maximum, forKey: .maximum)
        case .cameraAvailable(let available):
            try container.encode(Name.cameraAvailable, forKey: .name)
            try container.encode(available, forKey: .available)
        case .legalHint(let text):
            try container.encode(Name.legalHint, forKey: .name)
            try container.encode(text, forKey: .text)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .name) {
        case .fallback: self = .fallback(try container.decode(Scan.FallbackReason.self, forKey: .reason))
        case .nfcExtractionStarted: self = .nfcExtractionStarted
        case .nfcExtractionProgress: self = .nfcExtractionProgress(try container.decode(Int.self, forKey: .percent))
        case .nfcExtractionFinished: self = .nfcExtractionFinished
        case .flash: self = .flash(try container.decode(Scan.FlashState.self, forKey: .state))
        case .nextPosition:
            let taken = try container.decodeIfPresent(Int.self, forKey: .taken)
            let maximum = try container.decodeIfPresent(Int.self, forKey: .maximum)
            if let taken, let maximum {
                self = .nextPosition(Scan.ImageCount(taken: taken, maximum: maximum))
            } else {
                self = .nextPosition(nil)
            }
        case .cameraAvailable: self = .cameraAvailable(try container.decode(Bool.self, forKey: .available))
        case .legalHint: self = .legalHint(try container.decode(String.self, forKey: .text))
        case .extractionState:
            let state: Scan.ExtractionState
            switch try container.decode(StateName.self, forKey: .state) {
            case .centerId: state = .centerId
            case .tooClose: state = .tooClose
            case .moveCloser: state = .moveCloser
            case .holdStraight: state = .holdStraight
            case .holdStill: state = .holdStill
            case .centerFace: state = .centerFace
            case .levelEyesAndDevice: state = .levelEyesAndDevice
            case .tilt:
                state = .tilt(
                    current: try container.decode(Int.self, forKey: .current),
                    target: try container.decode(Int.self, forKey: .target)
                )
            case .tiltFace: state = .tiltFace(try container.decode(Scan.Direction.self, forKey: .direction))
            }
            self = .extractionState(state)
        }
    }
}
