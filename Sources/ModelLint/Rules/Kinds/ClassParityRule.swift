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
public protocol ClassParityRule: Rule {
    func check(_ classes: ModelClasses) -> [Finding]
}

/// Everything a class parity rule compares: the classes read from Swift and the bundles.
public struct ModelClasses: Sendable {
    public var sets: [SwiftSchemaSet]
    public var managedObjectClasses: [ManagedObjectClass]
    public var bundles: [ModelBundle]

    public init(sets: [SwiftSchemaSet], managedObjectClasses: [ManagedObjectClass], bundles: [ModelBundle]) {
        self.sets = sets
        self.managedObjectClasses = managedObjectClasses
        self.bundles = bundles
    }
}

extension ClassParityRule { public var kind: RuleKind { .classParity(self) } }
