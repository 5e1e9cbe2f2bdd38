import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// A single-version rule that judges entities one at a time, reading nothing about an entity beyond its
/// neighborhood (`Model.neighborhood(of:)`: the entity, its ancestors, the entities it names, and the
/// model's CloudKit settings). Most entities repeat unchanged across a bundle's versions, so the linter
/// judges each distinct neighborhood once and carries the findings to the versions that repeat it.
package protocol EntityRule: VersionRule {
    /// Whether `check(_:in:context:)` reads the entity's own elements and nothing else (neither the model, nor the
    /// entity's ancestors or the entities it names, nor the context): then the engine judges each distinct entity
    /// once per bundle, not each distinct neighborhood. False unless a rule says so.
    static var readsOnlyItsEntity: Bool { get }
    /// Findings about the model as a whole rather than one entity (none by default).
    func checkModel(_ model: Model, context: RuleContext) -> [Finding]
    func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding]
}

extension EntityRule {
    package static var readsOnlyItsEntity: Bool { false }
    package func checkModel(_ model: Model, context: RuleContext) -> [Finding] { [] }

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        checkModel(model, context: context) + model.entities.flatMap { check($0, in: model, context: context) }
    }
}

extension EntityRule { package var kind: RuleKind { .entity(self) } }
