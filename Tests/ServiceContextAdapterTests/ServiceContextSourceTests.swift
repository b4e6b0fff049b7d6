import ConfigDomain
import ConfigPorts
import ServiceContextAdapter
import ServiceContextModule
import Testing

/// `ServiceContextSource` reads the evaluation context of the calling task's `ServiceContext`: nil
/// outside one, the request's user inside, inherited by the tasks the request starts.
@Suite("ServiceContextSource")
struct ServiceContextSourceTests {
    static let alice = EvaluationContext(targetingKey: "alice", attributes: ["country": "DE"])
    static let bob = EvaluationContext(targetingKey: "bob", attributes: ["country": "FR", "plan": "pro"])

    /// A top-level service context carrying `evaluation`.
    static func serviceContext(_ evaluation: EvaluationContext?) -> ServiceContext {
        var context = ServiceContext.topLevel
        context.evaluationContext = evaluation
        return context
    }

    @Test("outside any ServiceContext the source answers nil")
    func nilOutside() {
        #expect(ServiceContext.current == nil)
        #expect(ServiceContextSource().currentContext == nil)
    }

    @Test("a ServiceContext without an evaluation context answers nil; one with it answers it")
    func withoutAndWith() {
        let source = ServiceContextSource()
        ServiceContext.withValue(.topLevel) {
            #expect(ServiceContext.current != nil)
            #expect(source.currentContext == nil)
        }
        ServiceContext.withValue(Self.serviceContext(Self.alice)) {
            #expect(source.currentContext == Self.alice)
        }
        #expect(source.currentContext == nil, "the value ends with the scope")
    }

    @Test("the value inside ServiceContext.withValue, across suspension points")
    func insideAsyncScope() async {
        let source = ServiceContextSource()
        await ServiceContext.withValue(Self.serviceContext(Self.alice)) {
            #expect(source.currentContext == Self.alice)
            await Task.yield()
            #expect(source.currentContext == Self.alice)
        }
        #expect(source.currentContext == nil)
    }

    @Test("an inner scope shadows the outer one and gives it back when it ends")
    func nestedScopes() async {
        let source = ServiceContextSource()
        await ServiceContext.withValue(Self.serviceContext(Self.alice)) {
            await ServiceContext.withValue(Self.serviceContext(Self.bob)) {
                await Task.yield()
                #expect(source.currentContext == Self.bob)
            }
            #expect(source.currentContext == Self.alice)
        }
    }

    @Test("tasks started inside the scope inherit it: async let and Task { }; a detached task does not")
    func nestedTasksInherit() async {
        let source = ServiceContextSource()
        let (inAsyncLet, inTask, inDetached) = await ServiceContext.withValue(Self.serviceContext(Self.bob)) {
            async let child = source.currentContext
            let unstructured = Task { source.currentContext }
            let detached = Task.detached { source.currentContext }
            return (await child, await unstructured.value, await detached.value)
        }
        #expect(inAsyncLet == Self.bob)
        #expect(inTask == Self.bob)
        #expect(inDetached == nil)
    }

    @Test("every child task of a task group sees the scope's context, and each request its own")
    func taskGroupChildren() async {
        let source = ServiceContextSource()
        let users = (0..<50).map { EvaluationContext(targetingKey: "user-\($0)", attributes: ["index": .int($0)]) }
        // Fifty concurrent "requests", each with its own user, each fanning out to four child tasks.
        let seen = await withTaskGroup(of: (EvaluationContext, [EvaluationContext?]).self) { requests in
            for user in users {
                requests.addTask {
                    await ServiceContext.withValue(Self.serviceContext(user)) {
                        let children = await withTaskGroup(of: EvaluationContext?.self) { group in
                            for _ in 0..<4 {
                                group.addTask {
                                    await Task.yield()
                                    return source.currentContext
                                }
                            }
                            return await group.reduce(into: []) { $0.append($1) }
                        }
                        return (user, children)
                    }
                }
            }
            return await requests.reduce(into: []) { $0.append($1) }
        }
        #expect(seen.count == users.count)
        for (user, children) in seen {
            #expect(children.count == 4)
            #expect(children.allSatisfy { $0 == user }, "\(user.targetingKey ?? "") saw \(children)")
        }
    }

    @Test("the key reads and writes through ServiceContext.evaluationContext, and names itself")
    func keyRoundTrip() {
        var context = ServiceContext.topLevel
        #expect(context.evaluationContext == nil)
        context.evaluationContext = Self.alice
        #expect(context[EvaluationContextKey.self] == Self.alice)
        #expect(context.count == 1)
        context.evaluationContext = nil
        #expect(context.evaluationContext == nil)
        #expect(context.isEmpty)
        #expect(EvaluationContextKey.name == "remote-config.evaluation-context")
    }
}
