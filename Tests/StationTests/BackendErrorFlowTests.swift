import Backend
import ScanFlow
import Station
import Testing

/// The station shows a backend failure as the seeds' error: `[family][xx][yyyy]`.
@Suite struct BackendErrorFlowTests {
    @Test func codesFollowTheSeeds() {
        #expect(BackendError(.network, call: .uploadPart, httpStatus: 503, message: "").flowError.code == "A300503")
        #expect(BackendError(.noConnection, call: .token, message: "").flowError.code == "E100000")
        #expect(BackendError(.credentials, call: .token, httpStatus: 401, message: "").flowError.code == "C100401")
        #expect(BackendError(.secureConnection, call: .createAccount, message: "").flowError.code == "B200000")
        #expect(BackendError(.encryptionKeyInvalid, call: .uploadPart, httpStatus: 400, message: "").flowError.code == "I000000")
        #expect(BackendError(.transactionFinished, call: .finalize, httpStatus: 410, message: "").flowError.code == "J000000")
    }

    /// Every kind, with the codes the backend's contract and fault tests used to check.
    @Test func everyKindHasItsFamily() {
        #expect(BackendError(.noConnection, call: .status, httpStatus: 503, message: "").flowError.code == "E500000")
        #expect(BackendError(.network, call: .status, httpStatus: 500, message: "").flowError.code == "A500500")
        #expect(BackendError(.network, call: .createAccount, httpStatus: 502, message: "").flowError.code == "A200502")
        #expect(BackendError(.network, call: .token, httpStatus: 429, message: "").flowError.code == "A100429")
        #expect(BackendError(.network, call: .uploadPart, message: "").flowError.code == "A300000")
        #expect(BackendError(.secureConnection, call: .token, message: "").flowError.code == "B100000")
        #expect(BackendError(.credentials, call: .createAccount, message: "").flowError.code == "C200401")
        #expect(BackendError(.forbidden, call: .status, httpStatus: 404, message: "").flowError.code == "D500404")
        #expect(BackendError(.forbidden, call: .retrieve, message: "").flowError.code == "D510403")
        #expect(BackendError(.notConfigured, call: .token, message: "").flowError.code == "F000000")
        #expect(BackendError(.rejected, call: .uploadPart, httpStatus: 409, message: "").flowError.code == "M300409")
        #expect(BackendError(.rejected, call: .status, message: "").flowError.code == "M500000")
        #expect(BackendError(.encryptionKeyInvalid, call: .encryptionKey, message: "").flowError.code == "I000000")
        #expect(BackendError(.transactionFinished, call: .uploadPart, httpStatus: 410, message: "").flowError.code == "J000000")
    }

    @Test func retryableExactlyWhenTheBackendErrorIs() {
        let kinds: [BackendError.Kind] = [
            .noConnection, .network, .secureConnection, .credentials, .forbidden, .encryptionKeyInvalid, .transactionFinished, .rejected, .notConfigured,
        ]
        for kind in kinds {
            let error = BackendError(kind, call: .status, message: "")
            #expect(error.flowError.isRetryable == error.isRetryable, "\(kind)")
        }
        #expect(BackendError(.network, call: .status, message: "").flowError.isRetryable)
        #expect(BackendError(.noConnection, call: .status, message: "").flowError.isRetryable)
    }

    @Test func codesAreSevenCharactersForAnyStatus() {
        for status in [0, 7, 42, 404, 503, 12345] {
            #expect(BackendError(.network, call: .finalize, httpStatus: status, message: "").flowError.code.count == 7)
        }
    }
}
