import Testing
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// The engine's one switch over rule kinds names where each kind's subjects come from; every source it names is one
/// a run reaches: a registered rule of every source exists, and the example harness runs each rule's triggering
/// examples through `Engine.run`, so a source nothing feeds fails there.
@Suite struct EngineTests {
    @Test func everySubjectSourceHasARegisteredRule() {
        let used = Set(RuleRegistry.all.map(\.kind.source))
        #expect(used == Set(SubjectSource.allCases))
    }

    @Test func everyRegisteredRuleHasATriggeringExample() {
        for rule in RuleRegistry.all {
            let triggering = rule.description.examples.filter { $0.triggers }.count
            #expect(triggering > 0, Comment(rawValue: rule.id))
        }
    }
}
