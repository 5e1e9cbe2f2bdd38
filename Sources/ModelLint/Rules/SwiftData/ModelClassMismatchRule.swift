import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData

package struct ModelClassMismatchRule: ClassParityRule {
    package init() {}

    package static let description = RuleDescription(
        id: "model-class-mismatch", category: .swiftData, severity: .error,
        summary: "@Model classes or NSManagedObject subclasses disagree with the .xcdatamodeld entities they stand for",
        rationale: """
            An app moving to SwiftData, or running both stacks on one store, opens the store written by the \
            `.xcdatamodeld` with the model SwiftData builds from the `@Model` classes. Where they disagree (an \
            entity or persistent property only one side has, a different type or optionality) the model SwiftData \
            builds is not the store's: the store needs a migration nobody wrote, and the app fails to load it at \
            launch ("a mismatch between the .xcdatamodeld and the @Model classes crashes at load time"). A class is \
            paired with a bundle when a `ModelConfiguration` names the bundle's store (`ModelConfiguration("Library")`, \
            a `url:` ending in `Library.sqlite`; then a class the bundle has no entity for is a mismatch too), else \
            when its name is an entity of exactly one bundle's current version; an `Int` \
            matches any integer type, as the migration guide says; a property whose Swift type the scanner cannot \
            map is compared by presence only. An `NSManagedObject` subclass (paired by `@objc(Name)`, the entity's \
            class name, or its own name) is judged on its `@NSManaged` stored properties (`var`; the to-many \
            accessors Xcode generates, `@NSManaged func addToTags(_:)`, are methods Core Data implements): one the \
            entity does not have, through its parents or, for an abstract entity's class, its subentities, is read \
            and written through accessors Core Data never generates, and the app crashes on first use. (Its Swift \
            optionality is not Core Data's, and a property it leaves out is still reachable: neither is judged.)
            """,
        fix:
            "make the class match the entity exactly (name, type, optionality; `@Attribute(originalName:)` for a differing Swift name), or add a model version for the change",
        examples: [
            .swift(
                [
                    (
                        "Library.xcdatamodeld/Library.xcdatamodel/contents",
                        """
                        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                            <entity name="Loan" representedClassName="Loan" syncable="YES">
                                <attribute name="dueAt" attributeType="Date" usesScalarValueType="NO"/>
                                <attribute name="memberName" attributeType="String"/>
                            </entity>
                        </model>
                        """
                    ),
                    (
                        "Models.swift",
                        """
                        import Foundation
                        import SwiftData
                        @Model final class Loan {
                            var memberName: String
                            var ↓dueAt: Date?
                            init(memberName: String) { self.memberName = memberName }
                        }
                        """
                    ),
                ], triggers: true),
            .swift(
                [
                    (
                        "Library.xcdatamodeld/Library.xcdatamodel/contents",
                        """
                        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                            <entity name="Loan" representedClassName="Loan" syncable="YES">
                                <attribute name="dueAt" attributeType="Date" usesScalarValueType="NO"/>
                                <attribute name="memberName" attributeType="String"/>
                                <attribute name="renewals" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                            </entity>
                        </model>
                        """
                    ),
                    (
                        "Models.swift",
                        """
                        import Foundation
                        import SwiftData
                        @Model final class Loan {
                            @Attribute(originalName: "memberName") var member: String
                            var dueAt: Date
                            var renewals: Int = 0
                            init(member: String, dueAt: Date) { self.member = member; self.dueAt = dueAt }
                        }
                        """
                    ),
                ], triggers: false),
            .swift(
                [
                    (
                        "Library.xcdatamodeld/Library.xcdatamodel/contents",
                        """
                        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                            <entity name="Book" representedClassName="Book" syncable="YES">
                                <attribute name="title" attributeType="String"/>
                            </entity>
                        </model>
                        """
                    ),
                    (
                        "Book+CoreDataProperties.swift",
                        """
                        import CoreData
                        @objc(Book)
                        public class Book: NSManagedObject {}
                        extension Book {
                            @NSManaged public var title: String?
                            @NSManaged public var ↓subtitle: String?
                        }
                        """
                    ),
                ], triggers: true),
        ])

    package func check(_ classes: ModelClasses) -> [Finding] {
        var findings: [Finding] = []
        for set in classes.sets {
            guard let schema = set.current else { continue }
            findings += check(schema, storeNames: set.storeNames, bundles: classes.bundles)
        }
        for managed in classes.managedObjectClasses {
            findings += check(managed, bundles: classes.bundles)
        }
        return findings
    }

    /// The one current version among `bundles` with an entity `matches` accepts, with that entity.
    static func pair(_ bundles: [ModelBundle], _ matches: (Entity) -> Bool) -> (
        ModelBundle, ModelVersion, Model, Entity
    )? {
        let owners = bundles.compactMap { bundle -> (ModelBundle, ModelVersion, Model, Entity)? in
            guard let version = bundle.currentVersion, let model = version.model,
                let entity = model.entities.first(where: matches)
            else { return nil }
            return (bundle, version, model, entity)
        }
        return owners.count == 1 ? owners[0] : nil
    }

    func check(_ managed: ManagedObjectClass, bundles: [ModelBundle]) -> [Finding] {
        let name = managed.objcName ?? managed.name
        func className(_ entity: Entity) -> String {
            let represented = entity.representedClassName ?? entity.name
            return represented.split(separator: ".").last.map(String.init) ?? represented
        }
        guard let (bundle, version, model, entity) = Self.pair(bundles, { className($0) == name }) else { return [] }
        // Through the hierarchy both ways: a property the entity inherits, and one an abstract entity's class
        // declares that its subentities model (each concrete subclass's instances have it).
        var known = Set(model.effectiveProperties(of: entity).map(\.property.name))
        for other in model.entities where Self.descends(other, from: entity.name, in: model) {
            known.formUnion(other.properties.map(\.name))
        }
        let place = "\(bundle.name).xcdatamodeld's current version \(version.name)"
        return managed.properties.filter { !known.contains($0.name) }.map { property in
            Finding(
                "\(managed.name).\(property.name) is @NSManaged in the class but \(entity.name) in \(place) has no such property: Core Data generates no accessor for it, and the app crashes on first use",
                at: property.at.sourceLocation, entity: entity.name, property: property.name)
        }
    }

    /// Whether `entity` has `ancestor` among its parents (a cycle or a missing parent ends the walk).
    static func descends(_ entity: Entity, from ancestor: String, in model: Model) -> Bool {
        var seen: Set<String> = [entity.name]
        var parent = entity.parentEntity
        while let name = parent, seen.insert(name).inserted {
            if name == ancestor { return true }
            parent = model.entity(named: name)?.parentEntity
        }
        return false
    }

    func check(_ schema: SwiftSchema, storeNames: [String], bundles: [ModelBundle]) -> [Finding] {
        var findings: [Finding] = []
        // A bundle named as the store a ModelConfiguration opens pairs with every class of the schema.
        let named = bundles.filter { storeNames.contains($0.name) }
        let sameStore = named.count == 1 ? named[0] : nil
        for type in schema.models {
            guard let mine = schema.model.entity(named: type.entityName) else { continue }
            let paired: (ModelBundle, ModelVersion, Model, Entity)?
            if let sameStore {
                guard let version = sameStore.currentVersion, let model = version.model else { continue }
                guard let entity = model.entity(named: type.entityName) else {
                    findings.append(
                        Finding(
                            "\(type.entityName) is a @Model class of the store \(sameStore.name) opens, but \(sameStore.name).xcdatamodeld's current version \(version.name) has no such entity: SwiftData's model is not the store's, and loading the store fails",
                            at: type.location.sourceLocation, entity: type.entityName, version: schema.name))
                    continue
                }
                paired = (sameStore, version, model, entity)
            } else {
                paired = Self.pair(bundles, { $0.name == type.entityName })
            }
            guard let (bundle, version, _, entity) = paired else { continue }
            let known = schema.unknownEntities[type.entityName] == nil
            let place = "\(bundle.name).xcdatamodeld's current version \(version.name)"
            let theirs = Dictionary(entity.properties.filter { !$0.isTransient }.map { ($0.name, $0) }) { a, _ in a }
            var matched = Set<String>()
            for property in mine.properties where !property.isTransient {
                // A renamed Swift property names the stored one by its renaming identifier.
                let name = theirs[property.name] != nil ? property.name : property.renamingIdentifier
                guard let other = theirs[name] else {
                    findings.append(
                        Finding(
                            "\(type.entityName).\(property.name) is in the @Model class but not in \(place): SwiftData's model is not the store's, and loading the store fails",
                            at: property.location, entity: type.entityName, property: property.name,
                            version: schema.name
                        ))
                    continue
                }
                matched.insert(name)
                if let difference = Self.difference(property, other, compareTypes: known) {
                    findings.append(
                        Finding(
                            "\(type.entityName).\(property.name) is \(difference.swift) in the @Model class but \(difference.model) in \(place): SwiftData's model is not the store's, and loading the store fails",
                            at: property.location, entity: type.entityName, property: property.name,
                            version: schema.name
                        ))
                }
            }
            let missing = theirs.keys.filter { !matched.contains($0) }.sorted()
            if !missing.isEmpty {
                findings.append(
                    Finding(
                        "\(type.entityName) in \(place) has \(ReportText.list(missing)), which the @Model class does not: SwiftData's model is not the store's, and loading the store fails",
                        at: type.location.sourceLocation, entity: type.entityName, version: schema.name))
            }
        }
        return findings
    }

    /// How two properties of one name differ, in each side's words (nil: they agree).
    static func difference(_ swift: Property, _ model: Property, compareTypes: Bool) -> (swift: String, model: String)?
    {
        switch (swift, model) {
        case (.attribute(let a), .attribute(let b)):
            guard compareTypes else { return nil }
            let sameType = a.type == b.type || (a.type == .integer64 && b.type.isInteger)
            if !sameType { return (a.type.xmlValue, b.type.xmlValue) }
            if a.isOptional != b.isOptional {
                return (a.isOptional ? "optional" : "required", b.isOptional ? "optional" : "required")
            }
            return nil
        case (.relationship(let a), .relationship(let b)):
            if a.destinationEntity != b.destinationEntity || a.isToMany != b.isToMany {
                func shape(_ r: Relationship) -> String {
                    "a to-\(r.isToMany ? "many" : "one") relationship to \(r.destinationEntity ?? "?")"
                }
                return (shape(a), shape(b))
            }
            return nil
        case (.attribute, .relationship): return ("an attribute", "a relationship")
        case (.relationship, .attribute): return ("a relationship", "an attribute")
        }
    }
}
