public struct TransformerChangedRule: ChangeRule {
    public init() {}
    public static let judgesEachPairAlone = true

    public static let description = RuleDescription(
        id: "transformer-changed", category: .changes, severity: .warning,
        summary: "`valueTransformerName` or `customClassName` changed on a Transformable",
        rationale: """
            The transformer is not part of any version hash: no migration runs, and the bytes already stored are \
            decoded by the new transformer, which may fail or read them differently. Absent, empty and \
            `NSKeyedUnarchiveFromData` are the same default; `NSSecureUnarchiveFromData` and \
            `NSSecureUnarchiveFromDataTransformer` are one transformer.
            """,
        fix: "keep a transformer that reads the old bytes, or add a new attribute and convert the values explicitly",
        examples: [
            .triggering(
                before: "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"ColorTransformer\"/></entity>",
                after: "<entity name=\"Prefs\">↓<attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>"),
            .passing(
                before: "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"\"/></entity>",
                after: "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\"/></entity>"),
            .passing(
                before: "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromDataTransformer\"/></entity>",
                after: "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>"),
        ])

    public func check(_ diff: ModelDiff, context: RuleContext) -> [Finding] {
        diff.matchedEntities.flatMap { entity in
            entity.matchedProperties.compactMap { pair in
                guard pair.facets.contains(.transformer), let old = pair.oldAttribute, let new = pair.newAttribute,
                      old.type == .transformable || new.type == .transformable else { return nil }
                func describe(_ a: Attribute) -> String {
                    let name = TransformerName.normalized(a.valueTransformerName)
                    return (name.isEmpty ? "the default transformer" : name) + ((a.customClassName ?? "").isEmpty ? "" : " (\(a.customClassName!))")
                }
                return .change(
                    "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(diff.between); no migration runs, and existing bytes are decoded by the new transformer",
                    entity: entity.new, property: pair.new)
            }
        }
    }
}
