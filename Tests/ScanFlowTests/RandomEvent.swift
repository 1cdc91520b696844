import ScanFlow

/// Any event the controller accepts, with parameters drawn from small domains that
/// include wrong values (unknown ids, parts of other documents, stale timers).
enum RandomEvent {
    case start(Workflow)
    case consent(String, Bool)
    case startCredential(String)
    case setConfiguration(String, Document)
    case setAcquireMode(Credential.AcquireMode)
    case setDigitalConfiguration(String, DigitalDocument)
    case handoffConfirmed, thirdPartySessionOpened
    case thirdPartyFinished(Controller.ThirdPartyOutcome)
    case startScanPart(Credential.Part)
    case takeImage, lastPage, confirm, retake, switchToFallback, pauseScan, retryScan
    case finishScanPart, finishCredential, finish, cancel, retryAfterError, userIsPresent
    case cameraStarted
    case deviceLost(Controller.Device), deviceRestored(Controller.Device)
    case scanUpdate(Scan.Update)
    case lowPerformance
    case imageCaptured(Credential.Part, withKey: Bool, isLast: Bool)
    case partProcessed(Controller.PartOutcome)
    case scanFailed(FlowError)
    case sessionFailed(FlowError)
    case chipReadStarted, chipReadProgress(Int), chipReadFinished, chipUnreadable
    case finalized(JourneyResult.AuthenticationOutcome?)
    case finalizeFailed(FlowError)
    case staleTimeout(Timeout)
    case advance(Duration)

    static let workflows: [Workflow] = [
        Fixtures.passportAndFace,
        Workflow(
            credentials: [Fixtures.idCardCredential, Fixtures.documentCredential, Fixtures.faceCredential],
            consentItems: [Fixtures.privacy],
            token: Fixtures.token
        ),
        Workflow(flow: .fastfill, credentials: [Fixtures.idCardCredential], token: Fixtures.token),
        Workflow(flow: .authentication(.enrollment("enr-77")), credentials: [Fixtures.faceCredential], token: Fixtures.token),
        Fixtures.digitalAndFace,
        Fixtures.workflow(BarcodeTests.usCredential, Fixtures.faceCredential),
    ]

    static let thirdPartyOutcomes: [Controller.ThirdPartyOutcome] = [
        .success, .success, .failed(Retry.Reason(code: 21, message: "Provider could not verify")), .cancelled,
        .error(FlowError(.A)), .error(FlowError(.F)),
    ]

    static func random(using rng: inout SplitMix64) -> RandomEvent {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
        let families = FlowError.Family.allCases
        switch Int.random(in: 0..<44, using: &rng) {
        case 0: return .start(pick(workflows))
        case 1, 2: return .consent(pick(["privacy", "notice", "other"]), Int.random(in: 0..<8, using: &rng) != 0)
        case 3, 4: return .startCredential(pick(["id-1", "id-2", "face-1", "doc-1", "nope"]))
        case 5: return .setConfiguration(pick(["AUT", "DEU", "USA"]), pick([Document(.passport), Document(.identityCard), Document(.identityCard, .paper), Document(.visa)]))
        case 6: return .setAcquireMode(pick(Credential.AcquireMode.allCases))
        case 7, 8: return .startScanPart(pick(Credential.Part.allCases))
        case 9: return pick([.takeImage, .lastPage, .confirm, .retake])
        case 10: return pick([.switchToFallback, .pauseScan, .retryScan])
        case 11, 12: return pick([.finishScanPart, .finishCredential, .finish])
        case 13: return Int.random(in: 0..<6, using: &rng) == 0 ? .cancel : .userIsPresent
        case 14: return .retryAfterError
        case 15, 16: return .cameraStarted
        case 17: return Bool.random(using: &rng) ? .deviceLost(pick(Controller.Device.allCases)) : .deviceRestored(pick(Controller.Device.allCases))
        case 18: return .scanUpdate(pick([.flash(.on), .extractionState(.holdStill), .extractionState(.tilt(current: 5, target: 0)), .legalHint("x")]))
        case 19: return .lowPerformance
        case 20, 21, 22: return .imageCaptured(pick([.front, .back, .face, .document]), withKey: Bool.random(using: &rng), isLast: Int.random(in: 0..<4, using: &rng) != 0)
        case 23, 24: return .partProcessed(pick([.accepted, .accepted, .rejected([.front: .glare]), .retry(Retry.Reason(code: 1, message: "again"))]))
        case 25: return .scanFailed(FlowError(pick(families)))
        case 26: return .sessionFailed(FlowError(pick(families)))
        case 27: return .chipReadStarted
        case 28: return .chipReadProgress(Int.random(in: -10...120, using: &rng))
        case 29: return pick([.chipReadFinished, .chipUnreadable])
        case 30, 31: return .finalized(pick([nil, .SUCCESS, .FAILED]))
        case 32: return .finalizeFailed(FlowError(pick(families)))
        case 33: return .staleTimeout(Timeout(pick(Timeout.Kind.allCases), generation: Int.random(in: 0..<40, using: &rng)))
        case 34: return .advance(.seconds(Int.random(in: 1...120, using: &rng)))
        case 35: return .setDigitalConfiguration(pick(["DNK", "AUT"]), pick([Fixtures.mitID, DigitalDocument(id: "bankid", title: "BankID")]))
        case 36: return pick([.handoffConfirmed, .thirdPartySessionOpened])
        case 37: return .thirdPartyFinished(pick(thirdPartyOutcomes))
        case 38: return .startScanPart(.digital)
        case 39: return .startCredential("id-3")
        default: return pick([.confirm, .finishScanPart, .finishCredential, .cameraStarted, .startScanPart(.front), .startScanPart(.face)])
        }
    }

    /// Sends the event through the harness and returns the actions.
    @discardableResult
    func apply(to h: inout Harness) -> [Action] {
        switch self {
        case .start(let workflow): h.send { $0.start(workflow: workflow) }
        case .consent(let id, let decision): h.send { $0.userConsented(itemID: id, decision: decision) }
        case .startCredential(let id): h.send { $0.startCredential(id: id) }
        case .setConfiguration(let country, let document): h.send { $0.setConfiguration(country: country, document: document) }
        case .setAcquireMode(let mode): h.send { $0.setAcquireMode(mode) }
        case .setDigitalConfiguration(let country, let document):
            h.send { $0.setConfiguration(country: country, digitalDocument: document) }
        case .handoffConfirmed: h.send { $0.handoffConfirmed() }
        case .thirdPartySessionOpened: h.send { $0.thirdPartySessionOpened() }
        case .thirdPartyFinished(let outcome): h.send { $0.thirdPartyFinished(outcome) }
        case .startScanPart(let part): h.send { $0.startScanPart(part) }
        case .takeImage: h.send { $0.takeImage() }
        case .lastPage: h.send { $0.lastPage() }
        case .confirm: h.send { $0.confirm() }
        case .retake: h.send { $0.retake() }
        case .switchToFallback: h.send { $0.switchToFallback() }
        case .pauseScan: h.send { $0.pauseScan() }
        case .retryScan: h.send { $0.retryScan() }
        case .finishScanPart: h.send { $0.finishScanPart() }
        case .finishCredential: h.send { $0.finishCredential() }
        case .finish: h.send { $0.finish() }
        case .cancel: h.send { $0.cancel() }
        case .retryAfterError: h.send { $0.retryAfterError() }
        case .userIsPresent: h.send { $0.userIsPresent() }
        case .cameraStarted: h.send { $0.cameraStarted() }
        case .deviceLost(let device): h.send { $0.deviceLost(device) }
        case .deviceRestored(let device): h.send { $0.deviceRestored(device) }
        case .scanUpdate(let update): h.send { $0.scanUpdate(update) }
        case .lowPerformance: h.send { $0.lowPerformance() }
        case .imageCaptured(let side, let withKey, let isLast):
            h.send { $0.imageCaptured(Fixtures.image(side, key: withKey ? Fixtures.mrzKey : nil), isLastOfSide: isLast) }
        case .partProcessed(let outcome): h.send { $0.partProcessed(outcome) }
        case .scanFailed(let error): h.send { $0.scanFailed(error) }
        case .sessionFailed(let error): h.send { $0.sessionFailed(error) }
        case .chipReadStarted: h.send { $0.chipReadStarted() }
        case .chipReadProgress(let percent): h.send { $0.chipReadProgress(percent) }
        case .chipReadFinished: h.send { $0.chipReadFinished() }
        case .chipUnreadable: h.send { $0.chipUnreadable() }
        case .finalized(let outcome): h.send { $0.finalized(outcome) }
        case .finalizeFailed(let error): h.send { $0.finalizeFailed(error) }
        case .staleTimeout(let timeout): h.send { $0.timeoutFired(timeout) }
        case .advance(let duration): h.advance(by: duration)
        }
    }

}

extension RandomEvent {
    /// The events a cooperative person and working devices would send next, judged from
    /// the last message on the display; mixing them into the random walk takes it deep.
    static func suggested(for h: Harness) -> [RandomEvent] {
        let next = h.controller.credentials.first { !$0.isFinished }
        guard let last = h.displayed.last(where: { if case .update = $0 { false } else { true } }) else { return [] }
        switch last {
        case .initialized:
            return [.consent("privacy", true)] + (next.map { [.startCredential($0.id)] } ?? [])
        case .credentialStarted(_, false, _), .configurationNotSupported:
            return [
                .setConfiguration("AUT", Document(.identityCard)), .setAcquireMode(.camera), .setAcquireMode(.file),
                .setDigitalConfiguration("DNK", Fixtures.mitID), .setConfiguration("DNK", Document(.passport)),
                .setConfiguration("USA", Document(.drivingLicense)),
            ]
        case .credentialStarted(_, true, let parts), .credentialConfigured(_, let parts):
            return parts.first.map { [.startScanPart($0)] } ?? [.finishCredential]
        case .credentialFinished:
            return next.map { [.startCredential($0.id)] } ?? [.finish]
        case .step(.prepare):
            return [.cameraStarted]
        case .step(.started(let part, let mode)), .step(.scanView(let part, let mode)):
            if mode == .nfc { return [.chipReadStarted] }
            return [.imageCaptured(part == .multipart ? .front : part, withKey: true, isLast: true)]
        case .step(.nextPart(let side)):
            return [.imageCaptured(side, withKey: true, isLast: true)]
        case .step(.processing), .step(.imageTaken):
            return [.partProcessed(.accepted)]
        case .step(.confirmationView):
            return [.confirm]
        case .step(.rejectView), .step(.retry), .offerFallback, .askStaff:
            return [.retake, .switchToFallback]
        case .step(.canFinish):
            return [.finishScanPart, .finishCredential]
        case .step(.addonScanPart):
            return [.chipReadStarted]
        case .digitalHandoff, .step(.digitalIdentityView):
            return [.handoffConfirmed, .thirdPartySessionOpened, .thirdPartyFinished(.success)]
        case .step(.thirdPartyVerification):
            // Mostly the provider verifies, so that walks also get past the part.
            return [.thirdPartyFinished(.success), .thirdPartyFinished(.success)] + thirdPartyOutcomes.map { .thirdPartyFinished($0) }
        case .finalizing:
            return [.finalized(.SUCCESS), .finalized(nil)]
        case .error, .inactivityWarning:
            return [.retryAfterError, .userIsPresent]
        case .step, .update, .logicalError, .finished:
            return [.finishScanPart, .finishCredential, .finish]
        }
    }
}
