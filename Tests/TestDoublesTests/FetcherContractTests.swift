import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

private typealias Check = FetcherContract.Check

/// Whether the report failed exactly the named check (among possibly others), with a message.
private func caught(_ report: ContractReport, _ check: Check) -> Bool {
    guard let result = report.check(named: check.rawValue) else { return false }
    return result.isFailure && !(result.failureMessage ?? "").isEmpty
}

@Suite("FetcherContract")
struct FetcherContractTests {
    @Test func inMemoryFetcherPassesEveryCheck() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("InMemoryFetcher", backend: backend) { backend }.run()
        report.recordIssues()
        #expect(report.passed)
        #expect(report.checks.map(\.name) == Check.allCases.map(\.rawValue))
        #expect(report.skipped.map(\.name) == [Check.noSecrets.rawValue])
        #expect(report.skipped.first?.outcome == .skipped(.noSecrets))
    }

    @Test func inMemoryFetcherKeepsADeclaredSecretOutOfErrors() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("InMemoryFetcher", backend: backend, capabilities: [], secrets: ["tok-123"]) {
            backend
        }.run()
        report.recordIssues()
        #expect(report.check(named: Check.noSecrets.rawValue)?.outcome == .passed)
    }

    @Test func aFetcherWithoutValidatorsPassesWhenItDeclaresIt() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract(
            "no validators", backend: backend, capabilities: [.noSecrets, .noValidators]
        ) { IgnoresValidatorsFetcher(backend: backend) }.run()
        report.recordIssues()
        #expect(report.passed)
    }

    @Test func declaringNoValidatorsIsVerified() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("lies", backend: backend, capabilities: [.noSecrets, .noValidators]) {
            backend
        }.run()
        #expect(caught(report, .unchanged))
    }

    @Test func ignoringValidatorsIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("ignores validators", backend: backend) {
            IgnoresValidatorsFetcher(backend: backend)
        }.run()
        #expect(caught(report, .unchanged))
        #expect(caught(report, .change))
        #expect(report.check(named: Check.unchanged.rawValue)?.failureMessage?.contains("ignores validators") == true)
    }

    @Test func takingAnyETagAsCurrentIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("any etag is current", backend: backend) { AnyETagIsCurrentFetcher(backend: backend) }
            .run()
        #expect(caught(report, .unknownValidators))
        #expect(report.check(named: Check.unchanged.rawValue)?.outcome == .passed)
    }

    @Test func concurrentFetchesThatDisagreeOnValidatorsAreCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("stamped etags", backend: backend) { StampedETagFetcher(backend: backend) }.run()
        #expect(caught(report, .concurrentFetches))
        #expect(report.failures.map(\.name) == [Check.concurrentFetches.rawValue])
        #expect(report.check(named: Check.concurrentFetches.rawValue)?.failureMessage?.contains("disagree") == true)
    }

    @Test func decidingFromPrivateStateIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("remembers", backend: backend) { RemembersLastAnswerFetcher(backend: backend) }
            .run()
        #expect(caught(report, .unconditionalFetch))
    }

    @Test func alteredBytesAreCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("re-encodes", backend: backend) { ReencodingFetcher(backend: backend) }.run()
        #expect(caught(report, .firstFetch))
    }

    @Test func swallowingCancellationIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("swallows cancellation", backend: backend) {
            SwallowsCancellationFetcher(backend: backend)
        }.run()
        #expect(caught(report, .cancelledBeforeStart))
        #expect(caught(report, .cancelledInFlight))
    }

    @Test func cancellationThatNeverArrivesIsCaughtWithinTheBound() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("shields cancellation", backend: backend, cancellationBound: 0.2) {
            ShieldsCancellationFetcher(backend: backend)
        }.run()
        #expect(caught(report, .cancelledInFlight))
        #expect(report.check(named: Check.cancelledInFlight.rawValue)?.failureMessage?.contains("0.2 s") == true)
    }

    @Test func untypedNonRetryableErrorsAreCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("untyped errors", backend: backend) { UntypedErrorsFetcher(backend: backend) }
            .run()
        #expect(caught(report, .temporaryFailure))
        #expect(caught(report, .cancelledBeforeStart))
        #expect(report.check(named: Check.permanentFailure.rawValue)?.outcome == .passed)
    }

    @Test func misleadingRetryAdviceIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("always retryable", backend: backend) { AlwaysRetryableFetcher(backend: backend) }
            .run()
        #expect(caught(report, .permanentFailure))
        #expect(report.check(named: Check.temporaryFailure.rawValue)?.outcome == .passed)
    }

    @Test func aLeakedSecretIsCaughtWithoutPrintingIt() async throws {
        let backend = InMemoryFetcher(json: "{}")
        let token = "s3cr3t-token-value"
        let report = await contract("leaks", backend: backend, capabilities: [], secrets: [token]) {
            LeaksSecretFetcher(backend: backend, token: token)
        }.run()
        #expect(caught(report, .noSecrets))
        #expect(!report.description.contains(token))
        let message = try #require(report.check(named: Check.noSecrets.rawValue)?.failureMessage)
        #expect(message.contains(Rejection.redacted))
    }

    @Test func retryingOnItsOwnIsCaught() async {
        let backend = InMemoryFetcher(json: "{}")
        let report = await contract("retries", backend: backend) { RetriesOnItsOwnFetcher(backend: backend) }.run()
        #expect(caught(report, .noRetries))
        #expect(report.check(named: Check.noRetries.rawValue)?.failureMessage?.contains("3 requests") == true)
    }

    @Test func missingHooksFailUnlessTheCapabilityIsDeclared() async {
        let backend = InMemoryFetcher(json: "{}")
        let bare = FetcherContract(
            subject: "bare", makeFetcher: { backend }, serve: { backend.serve(payload: $0) })
        let report = await bare.run()
        for check in [Check.temporaryFailure, .permanentFailure, .cancelledInFlight, .noRetries, .noSecrets] {
            #expect(caught(report, check), "\(check)")
        }
        #expect(report.check(named: Check.noRetries.rawValue)?.failureMessage?.contains(".uncountedRequests") == true)

        var declared = bare
        declared.capabilities = [.noFaultInjection, .cannotHold, .uncountedRequests, .noSecrets]
        let skipped = await declared.run()
        skipped.recordIssues()
        #expect(skipped.passed)
        #expect(
            Set(skipped.skipped.map(\.name))
                == Set(
                    [Check.temporaryFailure, .permanentFailure, .cancelledInFlight, .noRetries, .noSecrets].map(
                        \.rawValue)))
    }

    @Test func aThrowingHookFailsTheCheckAndNamesTheHook() async {
        struct Down: Error {}
        let backend = InMemoryFetcher(json: "{}")
        let report = await FetcherContract(
            subject: "broken factory", capabilities: [.noFaultInjection, .cannotHold, .uncountedRequests, .noSecrets],
            makeFetcher: { throw Down() }, serve: { backend.serve(payload: $0) }
        ).run()
        #expect(!report.passed)
        #expect(report.failures.allSatisfy { $0.failureMessage?.contains("makeFetcher hook threw") == true })
    }
}
