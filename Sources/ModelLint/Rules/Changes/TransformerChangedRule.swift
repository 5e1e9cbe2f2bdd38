import ModelLintModel
import ModelLintDiff

package struct TransformerChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
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
            any other class fails after the update. A subclass of `NSSecureUnarchiveFromDataTransformer` that the app's \
            code declares (directly or through another app class) is judged the same way against its own \
            `allowedTopLevelClasses` when that is a literal list (a note when it is not: the evidence does not decide). \
            A transformer name an app keeps in the attribute's User Info (`transformer`, with `valueTransformerName` \
            empty) is the attribute's transformer. A change of `customClassName` alone is code generation, not storage.
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

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard pair.facets.contains(.transformer), let old = pair.oldAttribute, let new = pair.newAttribute,
                old.type == .transformable || new.type == .transformable
            else { return nil }
            func describe(_ a: Attribute) -> String {
                let name = TransformerName.effective(a)
                return (name.isEmpty ? "the default transformer" : name)
                    + ((a.customClassName ?? "").isEmpty ? "" : " (\(a.customClassName!))")
            }
            let from = TransformerName.effective(old)
            let to = TransformerName.effective(new)
            let named = [old.customClassName, new.customClassName].compactMap { $0 }.filter { !$0.isEmpty }
            let classes = named.enumerated().filter { !named[..<$0.offset].contains($0.element) }.map(\.element)
            // Every secure unarchiver reads the keyed archives the default transformer wrote; what differs is the
            // classes it lets through: the system's list, or an app subclass's own (`allowedTopLevelClasses`).
            func secure(_ name: String) -> (label: String, allows: (String) -> Bool?)? {
                if name == "NSSecureUnarchiveFromData" {
                    return ("the secure transformer", { SecureCodingClasses.allows($0) })
                }
                guard let (_, allowed) = context.appTransformers.secure(named: name) else { return nil }
                let label = "\(name), the app's NSSecureUnarchiveFromDataTransformer subclass,"
                return (
                    label,
                    { type in
                        // Its list replaces the system's: every class named in the type must be on it (a Swift
                        // spelling as its Foundation class: String as NSString).
                        allowed.map { list in
                            let names = type.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
                                .map(String.init)
                            return !names.isEmpty && names.allSatisfy { list.contains($0) || list.contains("NS" + $0) }
                        }
                    }
                )
            }
            guard let target = secure(to), from.isEmpty || secure(from) != nil else {
                return .change(
                    "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between); no migration runs, and existing bytes are decoded by the new transformer",
                    entity: entity.new, property: pair.new)
            }
            let verdicts = classes.map { target.allows($0) }
            if verdicts.allSatisfy({ $0 == true }) {
                let step = from.isEmpty ? "Apple's recommended step; " : ""
                return .change(
                    "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between): \(step)\(target.label) reads the same keyed archives for \(classes.isEmpty ? "the classes it allows" : classes.joined(separator: " and ")), so existing values still decode",
                    entity: entity.new, property: pair.new, severity: .note)
            }
            if verdicts.contains(false) {
                let refused = zip(classes, verdicts).filter { $0.1 == false }.map(\.0)
                let what =
                    to == "NSSecureUnarchiveFromData"
                    ? "the secure transformer decodes only NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID and NSNull"
                    : "\(target.label) does not list \(refused.joined(separator: " and ")) in its allowedTopLevelClasses"
                return .change(
                    "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between): \(what), so existing \(refused.joined(separator: " and ")) values fail to decode after the update",
                    entity: entity.new, property: pair.new)
            }
            // An app subclass whose allowed classes are not a literal: the evidence does not decide.
            return .change(
                "\(pair.label) changed transformer from \(describe(old)) to \(describe(new)) \(versions.between): \(target.label) reads the same keyed archives; its allowedTopLevelClasses is not a literal modellint can read, so check that it lists \(classes.isEmpty ? "the values' class" : classes.joined(separator: " and "))",
                entity: entity.new, property: pair.new, severity: .note)
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
