import APDU
@testable import MRTD
import Testing

/// The chip reader's recovery, driven by its events alone: no chip, no transport.
@Suite struct ReadSessionTests {
    static let lostSync = MRTDError(code: .macMismatch, message: "MAC does not verify")
    static let lost = MRTDError(code: .transportFailure, message: "the card could not be reached")

    func makeSession(extendedLength: Bool? = false, restarts: Int = 8, reconnects: Int = 3, canReconnect: Bool = true) -> ReadSession {
        ReadSession(
            policy: ReadLengthPolicy(extendedLength: extendedLength, secureMessaging: true),
            maximumSessionRestarts: restarts, maximumReconnects: reconnects, canReconnect: canReconnect)
    }

    @Test func answersAreUsedRefusedOrReadShorter() {
        var session = makeSession()
        #expect(session.readAnswered(.success, length: 223) == .useAnswer)
        #expect(session.readAnswered(.endOfFileReached, length: 223) == .useAnswer)
        #expect(session.readAnswered(.securityStatusNotSatisfied, length: 223) == .refuse(.securityStatusNotSatisfied))
        #expect(session.readAnswered(.fileNotFound, length: 223) == .refuse(.fileNotFound))
        #expect(session.readAnswered(.wrongLength, length: 223) == .resume)
        #expect(session.policy.current == 160)
        #expect(session.readAnswered(StatusWord(rawValue: 0x6C40), length: 160) == .resume)
        #expect(session.policy.current == 64)
        #expect(session.readAnswered(.wrongLength, length: 64) == .resume)
        #expect(session.readAnswered(.wrongLength, length: 32) == .refuse(.wrongLength))  // nothing shorter left
        #expect(session.restarts == 0 && session.reconnects == 0)
    }

    @Test func aSuccessfulExtendedReadConfirmsExtendedLengths() {
        var session = makeSession(extendedLength: nil)
        #expect(session.readAnswered(.success, length: 65536) == .useAnswer)
        #expect(session.policy.extendedConfirmed)
        // A failed exchange is now the card leaving, not the reader refusing extended APDUs.
        #expect(session.commandFailed(Self.lost, extended: true) == .reconnect)
        #expect(session.policy.current == 65536)
        #expect(session.restarts == 0)
    }

    @Test func lostSyncRestartsTheSessionAndResumes() {
        var session = makeSession()
        #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
        #expect(session.authenticated() == .resume)
        #expect(session.commandFailed(MRTDError(code: .unprotectedResponse, message: "plain"), extended: false) == .restartSession(after: .unprotectedResponse))
        #expect(session.authenticated() == .resume)
        #expect(session.restarts == 2)
        #expect(session.reconnects == 0)
        #expect(session.policy.current == 223)  // a MAC failure says nothing about the length
    }

    @Test func aPlainWrongLengthAlsoStepsTheLengthDown() {
        var session = makeSession()
        let plain = MRTDError(code: .unprotectedResponse, message: "plain", statusWord: .wrongLength)
        #expect(session.commandFailed(plain, extended: false) == .restartSession(after: .unprotectedResponse))
        #expect(session.policy.current == 160)
        let exact = MRTDError(code: .unprotectedResponse, message: "plain", statusWord: StatusWord(rawValue: 0x6C50))
        #expect(session.authenticated() == .resume)
        #expect(session.commandFailed(exact, extended: false) == .restartSession(after: .unprotectedResponse))
        #expect(session.policy.current == 0x50)
    }

    @Test func restartsExhaustedEndTheReadWithTheLastError() {
        var session = makeSession(restarts: 2)
        for _ in 0..<2 {
            #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
            #expect(session.authenticated() == .resume)
        }
        #expect(session.commandFailed(Self.lostSync, extended: false) == .fail(Self.lostSync))
        #expect(session.restarts == 3)
    }

    @Test func aRestartThatFailsEndsTheRead() {
        var session = makeSession()
        #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
        let refused = MRTDError(code: .accessDenied, message: "BAC refused")
        #expect(session.authenticationFailed(refused) == .fail(refused))
        // Also when the card went away during it: the caller's own recovery takes that over.
        #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
        #expect(session.authenticationFailed(Self.lost) == .fail(Self.lost))
        #expect(session.reconnects == 0)
    }

    @Test func aFailedExtendedExchangeTriesShortLengthsOnTheSameCard() {
        var session = makeSession(extendedLength: nil)
        #expect(session.policy.isExtended)
        #expect(session.commandFailed(Self.lost, extended: true) == .restartSession(after: nil))
        #expect(!session.policy.isExtended)
        #expect(session.policy.current == 223)
        #expect(session.authenticated() == .resume)
        #expect(session.restarts == 1)
        #expect(session.reconnects == 0)
        // A short exchange that fails is the card leaving.
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
    }

    @Test func aFailedExtendedExchangeWhoseRestartFailsWaitsForTheCard() {
        var session = makeSession(extendedLength: nil)
        #expect(session.commandFailed(Self.lost, extended: true) == .restartSession(after: nil))
        #expect(session.authenticationFailed(Self.lost) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        #expect(session.authenticated() == .resume)
        #expect(session.restarts == 1)
        #expect(session.reconnects == 1)
    }

    @Test func aFailedExtendedExchangeBeyondTheRestartBudgetWaitsForTheCard() {
        var session = makeSession(extendedLength: nil, restarts: 0)
        #expect(session.commandFailed(Self.lost, extended: true) == .reconnect)
        #expect(!session.policy.isExtended)
        #expect(session.restarts == 1)
        #expect(session.reconnects == 1)
    }

    @Test func aLostCardIsReconnectedAndTheSessionEstablishedOnIt() {
        var session = makeSession()
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        #expect(session.authenticated() == .resume)
        #expect(session.reconnects == 1)
        #expect(session.restarts == 0)
        // A closed channel is the same: the card may have been swapped.
        #expect(session.commandFailed(MRTDError(code: .channelClosed, message: "closed"), extended: false) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        #expect(session.authenticated() == .resume)
        #expect(session.reconnects == 2)
    }

    @Test func aCardLostDuringAccessControlIsWaitedFor() {
        var session = makeSession()
        #expect(session.cardLost(Self.lost) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        #expect(session.authenticated() == .resume)
        #expect(session.reconnects == 1)
    }

    @Test func aCardLostAgainWhileAuthenticatingIsWaitedForAgainUntilTheBudgetEnds() {
        var session = makeSession(reconnects: 3)
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
        for _ in 0..<2 {
            #expect(session.reconnected() == .authenticateReturnedCard)
            #expect(session.authenticationFailed(Self.lost) == .reconnect)
        }
        #expect(session.reconnected() == .authenticateReturnedCard)
        let action = session.authenticationFailed(Self.lost)
        #expect(action == .fail(MRTDError(code: .cardLost, message: "the card left the reader 3 times")))
        if case .fail(let error) = action { #expect((error.cause as? MRTDError)?.code == .transportFailure) }
        #expect(session.reconnects == 4)
    }

    @Test func anotherFailureWhileAuthenticatingTheReturnedCardEndsTheRead() {
        var session = makeSession()
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        let swapped = MRTDError(code: .accessDenied, message: "another document")
        #expect(session.authenticationFailed(swapped) == .fail(swapped))
    }

    @Test func aCardThatDoesNotComeBackIsCardLost() {
        var session = makeSession()
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
        #expect(session.reconnectFailed(CancellationError()) == .fail(MRTDError(code: .cardLost, message: "the card did not come back")))
    }

    @Test func withoutReconnectALostCardIsCardLost() {
        var session = makeSession(canReconnect: false)
        #expect(session.commandFailed(Self.lost, extended: false) == .fail(MRTDError(code: .cardLost, message: "the card left the reader")))
        #expect(session.cardLost(Self.lost) == .fail(MRTDError(code: .cardLost, message: "the card left the reader")))
        #expect(session.reconnects == 0)
    }

    @Test func errorsThatNoRecoveryHelpsEndTheStep() {
        var session = makeSession()
        for code in [MRTDError.Code.accessDenied, .cardRefused, .malformedCardResponse, .cryptoFailure, .channelBusy, .invalidCommand] {
            let error = MRTDError(code: code, message: "x")
            #expect(session.commandFailed(error, extended: false) == .fail(error))
        }
        #expect(session.restarts == 0 && session.reconnects == 0)
    }

    /// Establishing a session sends protected commands of its own (EF.CardSecurity after
    /// PACE); a recovery they need runs inside the one that was under way, which goes on
    /// with its own meaning afterwards.
    @Test func aRecoveryInsideARestartReturnsToTheRestart() {
        var session = makeSession(extendedLength: nil)
        #expect(session.commandFailed(Self.lost, extended: true) == .restartSession(after: nil))
        // During that restart a protected command loses sync: a restart inside the restart.
        #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
        #expect(session.authenticated() == .resume)
        // The outer restart then fails: as a failed extended fallback, the card is waited for.
        #expect(session.authenticationFailed(Self.lost) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        // And inside the returned card's authentication, the card is lost again and comes back.
        #expect(session.commandFailed(Self.lost, extended: false) == .reconnect)
        #expect(session.reconnected() == .authenticateReturnedCard)
        #expect(session.authenticated() == .resume)
        #expect(session.authenticated() == .resume)
        #expect(session.restarts == 2)
        #expect(session.reconnects == 2)
        // Back to plain reading: a new lost sync is a new restart.
        #expect(session.commandFailed(Self.lostSync, extended: false) == .restartSession(after: .macMismatch))
    }

    @Test func aRecoveryThatGivesUpInsideAnotherLeavesTheOuterOneToDecide() {
        var session = makeSession(extendedLength: nil, restarts: 1)
        #expect(session.commandFailed(Self.lost, extended: true) == .restartSession(after: nil))
        // Inside it, lost sync beyond the budget: that step fails...
        #expect(session.commandFailed(Self.lostSync, extended: false) == .fail(Self.lostSync))
        // ...the failure reaches the outer restart, which waits for the card.
        #expect(session.authenticationFailed(Self.lostSync) == .reconnect)
    }
}

/// Actions compare by case and payload; errors by code and message (their causes are
/// `any Error`).
extension ReadSession.Action: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.useAnswer, .useAnswer), (.resume, .resume), (.reconnect, .reconnect), (.authenticateReturnedCard, .authenticateReturnedCard):
            true
        case (.refuse(let a), .refuse(let b)): a == b
        case (.restartSession(let a), .restartSession(let b)): a == b
        case (.fail(let a), .fail(let b)): a.code == b.code && a.message == b.message && a.statusWord == b.statusWord
        default: false
        }
    }
}
