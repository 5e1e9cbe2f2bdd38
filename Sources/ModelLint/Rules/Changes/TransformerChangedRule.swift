import ModelLintModel
import ModelLintDiff

public struct TransformerChangedRule: EntityPairRule {
    public init() {}

    public static let description = RuleDescription(
        id: "transformer-changed", category: .changes, severity: .warning,
        summary: "`valueTransformerName` changed on a Transformable",
        rationale: """
            The transformer is not part of any version hash: no migration runs, and the bytes already stored are \
            decoded by the new transformer, which may fail or read them differently. Absent, empty and \
            `NSKeyedUnarchiveFromData` are the same default; `NSSecureUnarchiveFromData` and \
            `NSSecureUnarchiveFromDataTransformer` are one transformer. The default -> `NSSecureUnarchiveFromData` step \
            is Apple's recommended path and reads the same keyed archives: a note when `customClassName` is absent or \
            names only classes the secure transformer allows (NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, \
            NSData, NSURL, NSUUID, NSNull and their Swift spellings such as `[String]`), a warning otherwise: decoding \
            any other class fails after the update. A change of `customClassName` alone is code generation, not storage.
            """,
        fix: "keep a transformer that reads the old bytes, or add a new attribute and convert the values explicitly",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"ColorTransformer\"/></entity>",
                after:
                    "<entity name=\"Prefs\">↓<attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>"
            ),
            RuleExample.triggering(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" customClassName=\"[String]\"/></entity>",
                after:
                    "<entity name=\"Prefs\">↓<attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\" customClassName=\"[String]\"/></entity>"
            )
            .expecting(.note),
            .triggering(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"color\" optional=\"YES\" attributeType=\"Transformable\" customClassName=\"UIColor\"/></entity>",
                after:
                    "<entity name=\"Prefs\">↓<attribute name=\"color\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\" customClassName=\"UIColor\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>",
                after:
                    "<entity name=\"Prefs\"><attribute name=\"tags\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\" customClassName=\"[String]\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"\"/></entity>",
                after:
                    "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromDataTransformer\"/></entity>",
                after:
                    "<entity name=\"Prefs\"><attribute name=\"colors\" optional=\"YES\" attributeType=\"Transformable\" valueTransformerName=\"NSSecureUnarchiveFromData\"/></entity>"
            ),
        ])

    public func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.matchedProperties.compactMap { pair in
            guard pair.facets.contains(.transformer), let old = pair.oldAttribute, let new = pair.newAttribute,
                old.type == .transformable || new.type == .transformable
            else { return nil }
            func describe(_ a: Attribute) -> String {
                let name = TransformerName.normalized(a.valueTransformerName)
                return (name.isEmpty ? "the default transformer" : name)
                    + ((a.customClassName ?? "").isEmpty ? "" : " (\(a.customClassName!))")
            }
            let from = TransformerName.normalized(old.valueTransformerName)
            let to = TransformerName.normalized(new.valueTransformerName)
            if from.isEmpty && to == "NSSecureUnarchiveFromData" {
                let named = [old.customClassName, new.customClassName].compactMap { $0 }.filter { !$0.isEmpty }
                let classes = named.enumerated().filter { !named[..<$0.offset].contains($0.element) }.map(\.element)
                if classes.allSatisfy(SecureCodingClasses.allows) {
                    return .change(
                        "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between): Apple's recommended step; the secure transformer reads the same keyed archives for \(classes.isEmpty ? "the classes it allows" : classes.joined(separator: " and ")), so existing values still decode",
                        entity: entity.new, property: pair.new, severity: .note)
                }
                return .change(
                    "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between): the secure transformer decodes only NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID and NSNull, so existing \(classes.joined(separator: " and ")) values fail to decode after the update",
                    entity: entity.new, property: pair.new)
            }
            return .change(
                "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between); no migration runs, and existing bytes are decoded by the new transformer",
                entity: entity.new, property: pair.new)
        }
    }
}

/// The classes `NSSecureUnarchiveFromData` decodes (its `allowedTopLevelClasses`), in Objective-C and Swift spellings.
package enum SecureCodingClasses {
    package static let allowed: Set<String> = [
        "NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber", "NSDate", "NSData", "NSURL", "NSUUID", "NSNull",
        "NSMutableArray", "NSMutableDictionary", "NSMutableSet", "NSMutableString", "NSMutableData",
        "Array", "Dictionary", "Set", "String", "Date", "Data", "URL", "UUID", "Bool", "Int", "Int8", "Int16", "Int32",
        "Int64",
        "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float", "CGFloat", "Decimal", "Any", "AnyHashable",
    ]

    /// `[String]`, `[String: Any]`, `Set<Int64>`, `Foundation.Date`: every type name in it is allowed.
    package static func allows(_ customClassName: String) -> Bool {
        let names = customClassName.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") })
            .map { $0.split(separator: ".").last.map(String.init) ?? "" }.filter { !$0.isEmpty }
        return !names.isEmpty && names.allSatisfy(allowed.contains)
    }
}
