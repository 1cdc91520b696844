/// A message from the controller to the display: the outbound half of the Custom UI contract.
///
/// Its JSON form is versioned and documented in docs/events.schema.json and docs/events.md.
/// It never carries personal data: images reach the display by another route, if at all.
/// Its one secret is the URL of `digitalHandoff`, which the person's phone needs.
public enum DisplayMessage: Hashable, Sendable {
    /// The journey is ready (seeds: `didInitializeWith credentialInformations, consentItems`).
    case initialized(credentials: [Credential.Info], consentItems: [ConsentItem]?)
    /// A credential was started; when it is not configured the display shows a selection.
    case credentialStarted(id: String, isConfigured: Bool, parts: [Credential.Part])
    /// The credential was configured and now has these parts.
    case credentialConfigured(id: String, parts: [Credential.Part])
    /// The selected configuration is not supported; the selection stays on screen.
    case configurationNotSupported(id: String)
    /// The credential was finished.
    case credentialFinished(id: String)
    case step(Scan.Step)
    /// Where the person continues a Digital Identity on their phone: show it as a QR code and
    /// a URL; `digitalIdentityView` follows (the seeds' `Jumio.DigitalIdentity.View`). It is
    /// the only message with a secret (the hand-off's token); it is printed redacted.
    case digitalHandoff(DigitalHandoff)
    case update(Scan.Update)
    /// Nobody answered for a while: ask "are you still there?"; the station resets after `remaining`.
    case inactivityWarning(remaining: Duration)
    /// The part failed often enough that its fallback mode is offered (`switchToFallback`).
    case offerFallback(Credential.Part, Scan.Mode)
    /// The part failed often and has no fallback: ask a member of staff for help.
    case askStaff(Credential.Part)
    /// The controller is finalising with the backend.
    case finalizing
    /// An error; when it is not retryable, `finished` follows.
    case error(FlowError)
    /// The owner misused the controller; nothing changed.
    case logicalError(LogicalError)
    /// The journey ended; nothing follows but the wipe of the session.
    case finished(JourneyResult)
}
