import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData

package struct SwiftDataStageGapRule: SwiftDataRule {
    package init() {}

    package static let description = RuleDescription(
        id: "swiftdata-stage-gap", category: .swiftData, severity: .error,
        summary: "the plan's stages do not chain its schemas in order",
        rationale: """
            SwiftData migrates a store stage by stage, from the schema that wrote it to the newest, in the order of \
            the plan's `schemas`. A consecutive pair with no stage, a stage that skips a schema, runs backwards or \
            repeats a pair leaves some stores with no path: they fail to open at launch.
            """,
        fix: "one stage per consecutive pair of `schemas`, in order",
        examples: [
            .swift(
                [
                    (
                        "Schemas.swift",
                        """
                        import SwiftData
                        enum V1: VersionedSchema {
                            static var versionIdentifier = Schema.Version(1, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; init() {} }
                        }
                        enum V3: VersionedSchema {
                            static var versionIdentifier = Schema.Version(3, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; var done: Bool = false; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                            static var stages: [MigrationStage] { [.↓lightweight(fromVersion: V1.self, toVersion: V3.self)] }
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
                            @Model final class Item { var name: String = ""; init() {} }
                        }
                        enum V2: VersionedSchema {
                            static var versionIdentifier = Schema.Version(2, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; init() {} }
                        }
                        enum V3: VersionedSchema {
                            static var versionIdentifier = Schema.Version(3, 0, 0)
                            static var models: [any PersistentModel.Type] { [Item.self] }
                            @Model final class Item { var name: String = ""; var note: String?; var done: Bool = false; init() {} }
                        }
                        enum Plan: SchemaMigrationPlan {
                            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                            static var stages: [MigrationStage] {
                                [.lightweight(fromVersion: V1.self, toVersion: V2.self), v2ToV3]
                            }
                            static let v2ToV3 = MigrationStage.lightweight(fromVersion: V2.self, toVersion: V3.self)
                        }
                        """
                    )
                ], triggers: false),
        ])

    package func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding] {
        guard set.plan != nil, set.schemas.count > 1,
            // A plan whose schemas could not all be read says nothing certain about order or what is missing.
            set.unresolvedSchemas.isEmpty
        else { return [] }
        var findings: [Finding] = []
        var covered = Set<Int>()
        var seen = Set<String>()
        for stage in set.stages {
            guard let from = SwiftDataText.position(of: stage.from, in: set),
                let to = SwiftDataText.position(of: stage.to, in: set)
            else { continue }
            let pair = "\(from)>\(to)"
            let names = "\(set.schemas[from].name) -> \(set.schemas[to].name)"
            if !seen.insert(pair).inserted {
                findings.append(
                    Finding(
                        "\(set.name) has the stage \(names) twice: SwiftData refuses a plan whose stages repeat a pair",
                        at: stage.location.sourceLocation, version: set.schemas[to].name))
            } else if to <= from {
                findings.append(
                    Finding(
                        "\(set.name)'s stage \(names) runs against the order of \(set.name).schemas: stores are migrated forwards only, so it is never used and the pair it meant has no stage",
                        at: stage.location.sourceLocation, version: set.schemas[to].name))
            } else if to > from + 1 {
                let skipped = set.schemas[(from + 1)..<to].map(\.name)
                covered.formUnion(from..<to)
                findings.append(
                    Finding(
                        "\(set.name)'s stage \(names) skips \(ReportText.list(skipped)): stores of \(set.schemas[from].name) have no stage to the next schema in \(set.name).schemas",
                        at: stage.location.sourceLocation, version: set.schemas[to].name))
            } else {
                covered.insert(from)
            }
        }
        // A stage that skips schemas was reported for the pairs it spans. A stage list that could not be read whole says nothing about the pairs it might cover.
        guard set.stagesReadable else { return findings }
        let place = set.location.sourceLocation
        for i in 0..<(set.schemas.count - 1) where !covered.contains(i) {
            findings.append(
                Finding(
                    "\(set.name) has no stage from \(set.schemas[i].name) to \(set.schemas[i + 1].name): stores \(set.schemas[i].name) wrote have no path to the newest schema",
                    at: place, version: set.schemas[i + 1].name))
        }
        return findings
    }
}
