import Foundation
import XCTest
import ModelLintSwiftData

/// The ways real SwiftData apps write their schemas, plans and models (read in public code with the search tool,
/// written here in our own words: no file is copied), each read into the sets it declares. Every expectation is what
/// the Swift means, worked out by reading it.
final class SwiftDataShapesTests: XCTestCase {
    /// One line per set: `Set: V1[A, B] V2[A] | stages V1>V2 lightweight | unresolved x | unknown V1.A`.
    static func outline(_ files: [(String, String)]) -> [String] {
        let sources = files.map { SwiftSourceFile(path: $0.0, bytes: Array($0.1.utf8)) }
        return SwiftDataReader.schemaSets(sources, moduleName: "App").map { set in
            var line =
                "\(set.name): "
                + set.schemas.map { "\($0.name)[\($0.models.map(\.entityName).joined(separator: ", "))]" }
                .joined(separator: " ")
            let stages = set.stages.map {
                "\(($0.from ?? "?").split(separator: ".").last ?? "")>\(($0.to ?? "?").split(separator: ".").last ?? "") \($0.kind.rawValue)"
            }
            if !stages.isEmpty { line += " | stages " + stages.joined(separator: ", ") }
            if !set.stagesReadable { line += " | stages unreadable" }
            if !set.unresolvedSchemas.isEmpty {
                line += " | unresolved " + set.unresolvedSchemas.joined(separator: ", ")
            }
            let unknown = set.schemas.flatMap { s in s.unknownEntities.keys.sorted().map { "\(s.name).\($0)" } }
            if !unknown.isEmpty { line += " | unknown " + unknown.joined(separator: ", ") }
            if !set.unlisted.isEmpty { line += " | unlisted " + set.unlisted.map(\.name).joined(separator: ", ") }
            return line
        }
    }

    func check(_ files: [(String, String)], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Self.outline(files), expected, file: file, line: line)
    }

    let item = """
        import SwiftData
        @Model final class Item {
            var title: String = ""
            init() {}
        }
        """

    func testModelsSpelledAsReturnStoredPropertyAndSelfPrefix() {
        // `return [...]` in a getter, with a trailing comma.
        check(
            [
                ("Item.swift", item),
                (
                    "V1.swift",
                    """
                    @available(iOS 17, *)
                    enum AppSchemaV1: VersionedSchema {
                        static let versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] {
                            return [
                                Item.self,
                            ]
                        }
                    }
                    """
                ),
            ], ["App: AppSchemaV1[Item]"])
        // A stored `static var models = [...]`, public, with the identifier after it.
        check(
            [
                ("Item.swift", item),
                (
                    "V1.swift",
                    """
                    #if canImport(SwiftData)
                    import SwiftData
                    #endif
                    public enum SchemaV1: VersionedSchema {
                        public static var models: [any PersistentModel.Type] = [
                            Item.self
                        ]
                        public static var versionIdentifier: Schema.Version = .init(1, 0, 0)
                    }
                    """
                ),
            ], ["App: SchemaV1[Item]"])
        // `Self.Pin.self` and `self.Alert.self`: the schema's own nested types.
        check(
            [
                (
                    "Schemas.swift",
                    """
                    import SwiftData
                    enum Schemas {}
                    extension Schemas {
                        public enum V1: VersionedSchema {
                            public static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
                            public static var models: [any PersistentModel.Type] { [Self.Pin.self, self.Note.self] }
                            @Model public final class Pin { public var label: String = ""; public init() {} }
                            @Model public final class Note { public var body: String = ""; public init() {} }
                        }
                    }
                    """
                )
            ], ["App: V1[Pin, Note]"])
    }

    func testASchemaReusingAnotherSchemasFrozenType() {
        check(
            [
                (
                    "Schemas.swift",
                    """
                    import SwiftData
                    enum SchemaV1: VersionedSchema {
                        static var models: [any PersistentModel.Type] { [SchemaV1.TodoModel.self] }
                        static let versionIdentifier = Schema.Version(1, 0, 0)
                        @Model final class TodoModel { var text: String = ""; init() {} }
                    }
                    enum SchemaV2: VersionedSchema {
                        static var models: [any PersistentModel.Type] {
                            [
                                // unchanged since V1
                                SchemaV1.TodoModel.self,
                                // new in V2
                                SchemaV2.SettingModel.self,
                            ]
                        }
                        static let versionIdentifier = Schema.Version(2, 0, 0)
                        @Model final class SettingModel { var key: String = ""; var value: String?; init() {} }
                    }
                    enum Plan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                        static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                    }
                    """
                )
            ], ["Plan: SchemaV1[TodoModel] SchemaV2[TodoModel, SettingModel] | stages SchemaV1>SchemaV2 lightweight"])
    }

    func testSchemasAndStagesHeldByOtherTypes() {
        // Each migration step in an enum of its own: `toVersion` and `stage` statics that the plan lists.
        check(
            [
                ("Item.swift", item),
                (
                    "Plan.swift",
                    """
                    import SwiftData
                    enum Schema1_0_0: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Item.self] }
                    }
                    enum Schema1_1_0: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 1, 0)
                        static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }
                        @Model final class Tag { var name: String = ""; init() {} }
                    }
                    enum MigrateTo1_1_0 {
                        static let toVersion = Schema1_1_0.self
                        static let stage = MigrationStage.lightweight(fromVersion: Schema1_0_0.self, toVersion: toVersion)
                    }
                    struct MigrationPlan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] {
                            [
                                Schema1_0_0.self,
                                MigrateTo1_1_0.toVersion,
                            ]
                        }
                        static var stages: [MigrationStage] { [MigrateTo1_1_0.stage] }
                    }
                    """
                ),
            ],
            // `toVersion: toVersion` names the enum's own constant: its `Schema1_1_0.self` is the target.
            ["MigrationPlan: Schema1_0_0[Item] Schema1_1_0[Item, Tag] | stages Schema1_0_0>Schema1_1_0 lightweight"])
    }

    func testAnEmptyPlanAndOneSchema() {
        check(
            [
                ("Item.swift", item),
                (
                    "Plan.swift",
                    """
                    import SwiftData
                    enum DataModelSchemaV1: VersionedSchema {
                        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
                        static var models: [any PersistentModel.Type] { [Item.self] }
                    }
                    /// No migrations yet.
                    enum DataModelMigrationPlan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] {
                            [DataModelSchemaV1.self]
                        }
                        static var stages: [MigrationStage] {
                            // none until V2
                            []
                        }
                    }
                    """
                ),
            ], ["DataModelMigrationPlan: DataModelSchemaV1[Item]"])
    }

    func testTypealiasesForTheCurrentSchema() {
        check(
            [
                (
                    "Schema.swift",
                    """
                    import SwiftData
                    public typealias CurrentSchema = SchemaV2
                    public typealias Alert = CurrentSchema.Alert
                    public enum SchemaV1: VersionedSchema {
                        public static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
                        public static var models: [any PersistentModel.Type] { [self.Alert.self] }
                        @Model public final class Alert { public var title: String = ""; public init() {} }
                    }
                    public enum SchemaV2: VersionedSchema {
                        public static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
                        public static var models: [any PersistentModel.Type] { [self.Alert.self, self.Snippet.self] }
                        @Model public final class Alert { public var title: String = ""; public var muted: Bool = false; public init() {} }
                        @Model public final class Snippet { public var text: String = ""; public init() {} }
                    }
                    """
                )
            ],
            // No plan: the schemas form one set, ordered by versionIdentifier.
            ["App: SchemaV1[Alert] SchemaV2[Alert, Snippet]"])
    }

    func testModelsAsAConcatenationOfAnotherSchemasList() {
        check(
            [
                (
                    "Schemas.swift",
                    """
                    import SwiftData
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Book.self] }
                        @Model final class Book { var title: String = ""; init() {} }
                    }
                    enum V2: VersionedSchema {
                        static var versionIdentifier = Schema.Version(2, 0, 0)
                        static var models: [any PersistentModel.Type] { V1.models + [Shelf.self] }
                        @Model final class Shelf { var code: String = ""; init() {} }
                    }
                    """
                )
            ], ["App: V1[Book] V2[Shelf, Book]"])
    }

    func testRelationshipsOptionalToManyAndPropertyWrappers() throws {
        let files = [
            (
                "Models.swift",
                """
                import SwiftData
                @Model final class Parent {
                    var id: UUID = UUID()
                    var name: String = ""
                    @Relationship(deleteRule: .cascade) var children: [Child]? = []
                    @Transient var isSelected = false
                    var count: Int { children?.count ?? 0 }
                    init() {}
                }
                @Model @MainActor final class Child {
                    @Relationship(inverse: \\Parent.children) var parent: Parent?
                    @Attribute(.externalStorage) var photo: Data?
                    var createdAt: Date = Date.now
                    init() {}
                }
                """
            )
        ]
        check(files, ["App: current[Parent, Child]"])
        let set = try XCTUnwrap(
            SwiftDataReader.schemaSets(
                files.map { SwiftSourceFile(path: $0.0, bytes: Array($0.1.utf8)) }, moduleName: "App"
            )
            .first)
        let model = try XCTUnwrap(set.current?.model)
        let parent = try XCTUnwrap(model.entity(named: "Parent"))
        XCTAssertEqual(parent.properties.map(\.name), ["id", "name", "children"])
        guard case .relationship(let children) = parent.properties[2] else { return XCTFail("children") }
        XCTAssertEqual(
            [
                "\(children.isToMany)", "\(children.isOptional)", children.deleteRule.xmlValue,
                children.inverseName ?? "-",
            ], ["true", "true", "Cascade", "parent"])
        let child = try XCTUnwrap(model.entity(named: "Child"))
        XCTAssertEqual(child.properties.map(\.name), ["parent", "photo", "createdAt"])
        guard case .attribute(let photo) = child.properties[1], case .attribute(let created) = child.properties[2]
        else {
            return XCTFail("attributes")
        }
        XCTAssertEqual([photo.type, created.type], [.binary, .date])
        XCTAssertTrue(photo.allowsExternalBinaryDataStorage)
        XCTAssertNil(created.defaultValueString)
    }

    func testUnmappableTypesMakeTheirEntityUnknown() {
        check(
            [
                (
                    "Models.swift",
                    """
                    import SwiftData
                    enum Priority: Int, Codable { case low, high }
                    struct Address: Codable { var street: String }
                    @Model final class Task {
                        var title: String = ""
                        var priority: Priority = .low
                        init() {}
                    }
                    @Model final class Customer {
                        var address: Address?
                        var tags: [String] = []
                        init() {}
                    }
                    @Model final class Note {
                        var text: String = ""
                        #if os(iOS)
                        var sketch: Data?
                        #endif
                        init() {}
                    }
                    """
                )
            ], ["App: current[Task, Customer, Note] | unknown current.Customer, current.Note, current.Task"])
    }

    /// `@Model class Sub: Base` (iOS 26) is read as a parent entity, but its hashes are not claimed.
    func testModelInheritanceIsReadButUnverified() throws {
        let files = [
            (
                "Models.swift",
                """
                import SwiftData
                @Model class Media {
                    var title: String = ""
                    init() {}
                }
                @available(iOS 26, *)
                @Model final class Video: Media {
                    var duration: Double = 0
                    override init() { super.init() }
                }
                """
            )
        ]
        check(files, ["App: current[Media, Video] | unknown current.Video"])
        let set = try XCTUnwrap(
            SwiftDataReader.schemaSets(
                files.map { SwiftSourceFile(path: $0.0, bytes: Array($0.1.utf8)) }, moduleName: "App"
            )
            .first)
        XCTAssertEqual(set.current?.model.entity(named: "Video")?.parentEntity, "Media")
    }

    func testCustomStagesWithFunctionsAndNamedConstants() {
        check(
            [
                (
                    "Plan.swift",
                    """
                    import SwiftData
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Trip.self] }
                        @Model final class Trip { var name: String = ""; init() {} }
                    }
                    enum V2: VersionedSchema {
                        static var versionIdentifier = Schema.Version(2, 0, 0)
                        static var models: [any PersistentModel.Type] { [Trip.self] }
                        @Model final class Trip { @Attribute(.unique) var name: String = ""; init() {} }
                    }
                    enum V3: VersionedSchema {
                        static var versionIdentifier = Schema.Version(3, 0, 0)
                        static var models: [any PersistentModel.Type] { [Trip.self] }
                        @Model final class Trip { @Attribute(.unique) var name: String = ""; var rating: Int = 0; init() {} }
                    }
                    enum TripsPlan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                        static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }
                        static let migrateV1toV2 = MigrationStage.custom(
                            fromVersion: V1.self,
                            toVersion: V2.self,
                            willMigrate: deduplicate,
                            didMigrate: nil
                        )
                        static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: V2.self, toVersion: V3.self)
                        static func deduplicate(_ context: ModelContext) throws {
                            let trips = try context.fetch(FetchDescriptor<V1.Trip>())
                            _ = trips
                        }
                    }
                    """
                )
            ], ["TripsPlan: V1[Trip] V2[Trip] V3[Trip] | stages V1>V2 custom, V2>V3 lightweight"])
    }

    func testAStagesListTheScannerCannotReadIsSaidSo() {
        check(
            [
                (
                    "Plan.swift",
                    """
                    import SwiftData
                    enum V1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Item.self] }
                        @Model final class Item { var name: String = ""; init() {} }
                    }
                    enum Plan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [V1.self] }
                        static var stages: [MigrationStage] { [makeStage(for: V1.self)] }
                    }
                    """
                )
            ], ["Plan: V1[Item] | stages unreadable"])
    }

    func testTwoPlansAndASchemaNoPlanLists() {
        check(
            [
                (
                    "Plans.swift",
                    """
                    import SwiftData
                    enum NotesV1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Note.self] }
                        @Model final class Note { var text: String = ""; init() {} }
                    }
                    enum TagsV1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Tag.self] }
                        @Model final class Tag { var label: String = ""; init() {} }
                    }
                    enum DraftsV1: VersionedSchema {
                        static var versionIdentifier = Schema.Version(1, 0, 0)
                        static var models: [any PersistentModel.Type] { [Draft.self] }
                        @Model final class Draft { var text: String = ""; init() {} }
                    }
                    enum NotesPlan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [NotesV1.self] }
                        static var stages: [MigrationStage] { [] }
                    }
                    enum TagsPlan: SchemaMigrationPlan {
                        static var schemas: [any VersionedSchema.Type] { [TagsV1.self] }
                        static var stages: [MigrationStage] { [] }
                    }
                    """
                )
            ], ["NotesPlan: NotesV1[Note]", "TagsPlan: TagsV1[Tag]"])
    }

    /// The store names ModelConfigurations give as literals: a name, or a url's file.
    func testStoreNamesFromModelConfigurations() throws {
        let files = [
            ("Item.swift", item),
            (
                "App.swift",
                """
                import SwiftData
                let a = ModelConfiguration("Library", schema: Schema([Item.self]))
                let b = ModelConfiguration(url: URL.documentsDirectory.appending(path: "Stores/Archive.sqlite"))
                let c = ModelConfiguration(isStoredInMemoryOnly: true)
                let d = ModelConfiguration(groupContainer: .identifier("group.example"), cloudKitDatabase: .private("iCloud.x"))
                """
            ),
        ]
        let set = try XCTUnwrap(
            SwiftDataReader.schemaSets(
                files.map { SwiftSourceFile(path: $0.0, bytes: Array($0.1.utf8)) }, moduleName: "App"
            )
            .first)
        XCTAssertEqual(set.storeNames, ["Library", "Archive"])
    }

    func testContainersTheAppBuilds() throws {
        let files = [
            ("Item.swift", item),
            (
                "Schemas.swift",
                """
                import SwiftData
                enum V1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [V1.self] }
                    static var stages: [MigrationStage] { [] }
                }
                """
            ),
            (
                "App.swift",
                """
                import SwiftUI
                import SwiftData
                @main struct NotesApp: App {
                    var body: some Scene {
                        WindowGroup { Text("") }
                            .modelContainer(for: [Item.self], inMemory: false)
                    }
                }
                func makeContainer() throws -> ModelContainer {
                    let schema = Schema([Item.self])
                    let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .automatic)
                    return try ModelContainer(for: schema, migrationPlan: Plan.self, configurations: [configuration])
                }
                #if DEBUG
                let preview = try! ModelContainer(for: Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
                #endif
                """
            ),
            ("AppTests/ContainerTests.swift", "let c = try! ModelContainer(for: V1.Item.self)"),
        ]
        let set = try XCTUnwrap(
            SwiftDataReader.schemaSets(
                files.map { SwiftSourceFile(path: $0.0, bytes: Array($0.1.utf8)) }, moduleName: "App"
            )
            .first)
        XCTAssertEqual(
            set.containers.map { "\($0.location.file):\($0.location.line) plan=\($0.plan ?? "-") models=\($0.models)" },
            ["App.swift:6 plan=- models=[\"Item\"]", "App.swift:12 plan=Plan models=[]"])
    }
}
