import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// A rule id that a `modellint:disable` User Info entry names (the engine reads the entries and applies them).
package struct SuppressionName: Sendable {
    package var version: String
    package var entity: String
    package var property: String?
    package var id: String
    package var location: SourceLocation

    package init(version: String, entity: String, property: String?, id: String, location: SourceLocation) {
        self.version = version
        self.entity = entity
        self.property = property
        self.id = id
        self.location = location
    }
}

/// Judges the `modellint:disable` entries of a bundle's versions: every rule id they name.
package protocol SuppressionRule: Rule {
    func check(_ names: [SuppressionName], knownRuleIDs: Set<String>) -> [Finding]
}

extension SuppressionRule { package var kind: RuleKind { .suppression(self) } }
