import Testing

@testable import SmartCard

@Suite struct SmartCardErrorTests {
    @Test(arguments: [
        (PCSCStatus.noService, SmartCardError.Kind.serviceUnavailable, "SCARD_E_NO_SERVICE"),
        (.serviceStopped, .serviceUnavailable, "SCARD_E_SERVICE_STOPPED"),
        (.notTransacted, .cardRemoved, "SCARD_E_NOT_TRANSACTED"),
        (.removedCard, .cardRemoved, "SCARD_W_REMOVED_CARD"),
        (.noSmartcard, .noCard, "SCARD_E_NO_SMARTCARD"),
        (.resetCard, .cardReset, "SCARD_W_RESET_CARD"),
        (.unknownReader, .readerNotFound, "SCARD_E_UNKNOWN_READER"),
        (.sharingViolation, .sharingViolation, "SCARD_E_SHARING_VIOLATION"),
        (.unresponsiveCard, .cardUnresponsive, "SCARD_W_UNRESPONSIVE_CARD"),
        (.invalidParameter, .failed, "SCARD_E_INVALID_PARAMETER"),
    ])
    func returnCodesMapToKinds(status: PCSCStatus, kind: SmartCardError.Kind, name: String) {
        let error = SmartCardError(call: "SCardTransmit", status: status)
        #expect(error.kind == kind)
        #expect(status.name == name)
        #expect(error.description.contains(name))
        #expect(error.description.contains("SCardTransmit"))
        #expect(!error.hint.isEmpty)
    }

    @Test func everyKnownCodeHasANameAndMessage() {
        #expect(PCSCStatus.known.count >= 59)
        for (status, entry) in PCSCStatus.known {
            #expect(entry.name.hasPrefix("SCARD_"))
            #expect(status.message == entry.message)
            #expect(!entry.message.isEmpty)
        }
    }

    @Test func unknownCodeIsShownInHex() {
        let status = PCSCStatus(rawValue: 0x8010_00FF)
        #expect(status.name == "SCARD_0x801000FF")
        #expect(!status.isRetryable)
    }

    @Test func retryability() {
        #expect(SmartCardError(call: "SCardConnect", status: .noService).isRetryable)
        #expect(SmartCardError(call: "SCardTransmit", status: .notTransacted).isRetryable)
        #expect(!SmartCardError(call: "SCardConnect", status: .invalidParameter).isRetryable)
        #expect(!SmartCardError(kind: .cancelled, message: "x").isRetryable)
    }

    @Test func successWithoutStatusWordIsAnEmptyResponseError() throws {
        for raw in [[], [0x90]] as [[UInt8]] {
            let error = #expect(throws: SmartCardError.self) { try CardConnection.response(from: raw) }
            #expect(error?.kind == .emptyResponse)
            #expect(error?.isRetryable == true)
            #expect(error?.description.contains("the card has gone") == true)
        }
        #expect(try CardConnection.response(from: [0x01, 0x90, 0x00]).data == [0x01])
    }

    @Test func featureTLVsParse() {
        let features = ReaderFeature.parse([0x06, 4, 0x42, 0x33, 0x00, 0x06, 0x12, 4, 0x42, 0x33, 0x00, 0x12, 0xFF])
        #expect(features.map(\.name) == ["FEATURE_VERIFY_PIN_DIRECT", "FEATURE_GET_TLV_PROPERTIES"])
        #expect(features.first?.controlCode == 0x4233_0006)
        #expect(ReaderFeature.parse([0x06, 2, 1, 2]).isEmpty)
    }

    @Test func multiStringSplits() {
        let buffer: [CChar] = Array("A 00 00".utf8CString.dropLast()) + [0] + Array("B 00 00".utf8CString.dropLast()) + [0, 0]
        #expect(PCSC.splitMultiString(buffer) == ["A 00 00", "B 00 00"])
    }
}
