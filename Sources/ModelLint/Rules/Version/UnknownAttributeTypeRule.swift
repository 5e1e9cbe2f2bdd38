import ModelLintSupport
import ModelLintModel

package struct UnknownAttributeTypeRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "unknown-attribute-type", category: .singleVersion, severity: .error,
        summary: "an `attributeType` that is not a Core Data type",
        rationale: """
            The model compiler rejects or mis-reads an attribute type it does not know, so the model does not build, or \
            builds with a type nobody chose. Valid types: Integer 16, Integer 32, Integer 64, Decimal, Double, Float, \
            String, Boolean, Date, Binary, UUID, URI, Transformable, Composite, Undefined, ObjectID.
            """,
        fix: "use one of Core Data's attribute types, spelled as Xcode writes it (`Integer 64`, not `Int64`)",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    ↓<attribute name="count" attributeType="Int64" defaultValueString="0"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.attributes.compactMap { attribute in
            guard case .unknown(let value) = attribute.type else { return nil }
            let meant = Self.swiftNames[value] ?? Spelling.closest(to: value, in: AttributeType.known.map(\.xmlValue))
            return Finding(
                "\(entity.name).\(attribute.name) has attributeType \"\(value)\", which is not a Core Data type"
                    + (meant.map { " (did you mean \($0)?)" } ?? ""),
                at: attribute.location, entity: entity.name, property: attribute.name)
        }
    }

    /// The Swift and Foundation names written where the model editor's are meant.
    static let swiftNames = [
        "Int16": "Integer 16", "Int32": "Integer 32", "Int64": "Integer 64", "Int": "Integer 64", "Bool": "Boolean",
        "Data": "Binary", "URL": "URI", "NSDecimalNumber": "Decimal", "NSDate": "Date", "NSData": "Binary",
    ]
}
