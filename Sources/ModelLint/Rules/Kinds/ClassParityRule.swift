import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges the app's model classes (the `@Model` classes of SwiftData sets, `NSManagedObject` subclasses) against
/// the `.xcdatamodeld` bundles of the run, once per run.
package protocol ClassParityRule: Rule {
    func check(_ classes: ModelClasses) -> [Finding]
}

/// Everything a class parity rule compares: the classes read from Swift and the bundles.
package struct ModelClasses: Sendable {
    package var sets: [SwiftSchemaSet]
    package var managedObjectClasses: [ManagedObjectClass]
    package var bundles: [ModelBundle]

    package init(sets: [SwiftSchemaSet], managedObjectClasses: [ManagedObjectClass], bundles: [ModelBundle]) {
        self.sets = sets
        self.managedObjectClasses = managedObjectClasses
        self.bundles = bundles
    }
}

extension ClassParityRule { package var kind: RuleKind { .classParity(self) } }
