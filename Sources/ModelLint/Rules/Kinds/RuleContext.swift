import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

package enum MigrationMode: String, CaseIterable, Sendable {
    /// Core Data's default: a store of any older version migrates in one hop to the current version.
    case direct
    /// The app steps through every version.
    case progressive
}

package struct Retirement: Equatable, Sendable {
    package var entity: String
    package var property: String
    package var replacedBy: String?
    package var interimVersion: String?

    package init(entity: String, property: String, replacedBy: String? = nil, interimVersion: String? = nil) {
        self.entity = entity
        self.property = property
        self.replacedBy = replacedBy
        self.interimVersion = interimVersion
    }
}

/// A rename the team declares (`renamed` in the configuration): in `version`'s step, the element named `from` in the
/// version before became `entity` (or `entity`'s `property`).
package struct DeclaredRename: Equatable, Sendable {
    package var entity: String
    package var property: String?
    package var from: String
    package var version: String

    package init(entity: String, property: String?, from: String, version: String) {
        self.entity = entity
        self.property = property
        self.from = from
        self.version = version
    }

    /// `Entity.property`, or the entity's name.
    package var label: String { property.map { "\(entity).\($0)" } ?? entity }
}

/// What rules may know beyond the model: the bundle's settings from the configuration.
package struct RuleContext: Sendable, Equatable {
    /// `cloudKit` from the configuration: forces the CloudKit rules on (true) or off (false).
    package var cloudKitOverride: Bool?
    package var retired: [Retirement]
    /// The renames the configuration declares.
    package var renamed: [DeclaredRename] = []
    package var migration: MigrationMode
    /// The value transformer classes the app's code declares.
    package var appTransformers = AppTransformers()
    /// What the versions were read from: a message that says what to write says it in the source's words.
    package var source: ModelBundle.Source = .xcdatamodeld

    package init(cloudKitOverride: Bool? = nil, retired: [Retirement] = [], migration: MigrationMode = .direct) {
        self.cloudKitOverride = cloudKitOverride
        self.retired = retired
        self.migration = migration
    }
}
