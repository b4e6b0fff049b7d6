#if canImport(Testing)
    import Testing

    extension ContractReport {
        /// Records one Swift Testing issue per failed check, named after the check, at `sourceLocation`.
        ///
        /// ```swift
        /// @Test func myFetcherPassesTheContract() async {
        ///     await FetcherContract(subject: "MyFetcher", /* … */).run().recordIssues()
        /// }
        /// ```
        public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) {
            for check in failures {
                Issue.record(
                    Comment(rawValue: "\(suite) on \(subject): \(check.name): \(check.failureMessage ?? "")"),
                    sourceLocation: sourceLocation)
            }
        }
    }
#endif
