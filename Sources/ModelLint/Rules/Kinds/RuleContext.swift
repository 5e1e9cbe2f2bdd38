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

/// What rules may know beyond the model: the bundle's settings from the configuration.
package struct RuleContext: Sendable, Equatable {
    /// `cloudKit` from the configuration: forces the CloudKit rules on (true) or off (false).
    package var cloudKitOverride: Bool?
    package var retired: [Retirement]
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
