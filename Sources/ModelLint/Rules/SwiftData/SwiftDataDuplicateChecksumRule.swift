import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataDuplicateChecksumRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-duplicate-checksum", category: .swiftData, severity: .error,
        summary: "two schemas of a plan resolve to identical entity hashes",
        rationale: """
            SwiftData identifies a schema by its checksum, computed from Core Data's entity version hashes (the \
            `versionIdentifier` is in no hash). Two schemas that list the same live types, or a schema added with no \
            real change, have identical checksums: SwiftData refuses the plan at launch with "Duplicate version \
            checksums detected", an Objective-C exception that no `do/catch` stops.
            """,
        fix: "remove the redundant schema and its stage, or make the change it was meant for",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        @Model final class Item {
                            var name: String = ""
                            init() {}
                        }
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                        }
                        ↓enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    )
                ], triggers: true),
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item {
                                var name: String = ""
                                init() {}
                            }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item {
                                var name: String = ""
                                var note: String?
                                init() {}
                            }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                            static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
                        }
                        """
                    )
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard !set.isUnversioned else { return [] }
        var findings: [Finding] = []
        var byChecksum: [String: SwiftSchema] = [:]
        for schema in set.schemas {
            let hashes = schema.model.versionHashes
            guard !hashes.entities.isEmpty else { continue }
            let checksum = hashes.versionChecksum
            if let earlier = byChecksum[checksum], earlier.qualifiedName != schema.qualifiedName {
                let live = schema.models.filter(\.isLive).map(\.entityName)
                let why = live.isEmpty ? "" : " (both list the live types \(ReportText.list(live)))"
                if schema.isFullyKnown && earlier.isFullyKnown {
                    findings.append(
                        Finding(
                            "\(schema.name) and \(earlier.name) resolve to identical entity hashes\(why): SwiftData refuses the plan at launch with \"Duplicate version checksums detected\", an exception no do/catch stops",
                            at: schema.location.sourceLocation, version: schema.name))
                } else {
                    findings.append(
                        Finding(
                            "\(schema.name) and \(earlier.name) look identical as far as they could be read\(why), but some of their types could not be read, so no checksum is claimed: if they are identical, SwiftData refuses the plan at launch (\"Duplicate version checksums detected\")",
                            at: schema.location.sourceLocation, severity: .note, version: schema.name))
                }
            } else {
                byChecksum[checksum] = schema
            }
        }
        return findings
    }
}
