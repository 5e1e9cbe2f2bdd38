import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// `suspicious-default-value`: the default respelled in the attribute's own type, in every version the finding
/// names that has not shipped (a shipped version's default is what its stores were made with: changing it is
/// `shipped-version-semantics-changed`, so those stay findings, as notes).
package struct SuspiciousDefaultRepair: Repair {
    package static let ruleID = "suspicious-default-value"
    package static let summary =
        "it respells the default in the attribute's own type where new objects keep the value they get today (`0.0` -> `0` and `NO` -> `0` on a number, `false`/`no` -> `NO` on a Boolean), in versions that have not shipped; a respelling that changes that value (`YES` -> `1` on a number, `true` -> `YES` on a Boolean) only where a lock file, --released or --against shows the version has not shipped."

    package init() {}

    /// A respelling, and whether new objects get the same value from it as from the old spelling.
    package struct Respelling: Equatable {
        package var text: String
        /// False when the old spelling reads as another value (`YES` on a number reads 0) or as one that depends on
        /// the conversion (`true` on a Boolean): then the respelling changes what the app gets.
        package var keepsValue: Bool
    }

    /// The default as the attribute's type writes what `value` says, or why that is a guess.
    package static func respelling(of value: String, for type: AttributeType) -> Result<Respelling, RepairRefusal> {
        if let range = type.integerRange {
            // `YES` converts to 0: what the model editor shows is not what the app gets.
            if value == "YES" { return .success(Respelling(text: "1", keepsValue: false)) }
            if value == "NO" { return .success(Respelling(text: "0", keepsValue: true)) }
            if case .whole(let integer)? = DefaultValueVerdict.ExactDecimal(value), range.contains(integer) {
                return .success(Respelling(text: String(integer), keepsValue: true))
            }
            return .failure(RepairRefusal("\"\(value)\" says no one whole number of \(type.xmlValue)"))
        }
        switch type {
        case .decimal, .double, .float:
            if value == "YES" { return .success(Respelling(text: "1", keepsValue: false)) }
            if value == "NO" { return .success(Respelling(text: "0", keepsValue: true)) }
        case .boolean:
            // Read as a number or as a Boolean word, these are NO either way; the others are YES only as a word.
            if ["false", "FALSE", "False", "no", "No"].contains(value) {
                return .success(Respelling(text: "NO", keepsValue: true))
            }
            if ["true", "TRUE", "True", "yes", "Yes"].contains(value) {
                return .success(Respelling(text: "YES", keepsValue: false))
            }
            return .failure(RepairRefusal("\"\(value)\" does not say YES or NO"))
        default:
            break
        }
        return .failure(RepairRefusal("no respelling of \"\(value)\" for \(type.xmlValue) is certain"))
    }

    package func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
        guard let entityName = diagnostic.entity, let propertyName = diagnostic.property else {
            return plan.left(diagnostic, "the finding names no attribute")
        }
        let named = diagnostic.versions ?? diagnostic.version.map { [$0] } ?? []
        let unshipped = named.filter { !subject.isShipped($0) }
        // Every version it names has shipped: their stores were made with this default, and it stays (a note).
        guard !unshipped.isEmpty else { return }
        var done: [String] = []
        for name in unshipped {
            guard let version = subject.version(named: name), let model = version.model,
                let entity = model.entity(named: entityName),
                let attribute = entity.attributes.first(where: { $0.name == propertyName }),
                let value = attribute.defaultValueString, let line = attribute.location.line
            else {
                return plan.left(diagnostic, "\(entityName).\(propertyName) was not found in \(name) as read")
            }
            let spelled: String
            switch Self.respelling(of: value, for: attribute.type) {
            case .success(let respelling):
                // Without a shipped record, "not shipped" is a guess (every version before the current one): the
                // current version may be in users' hands, and new objects there would get another value.
                guard respelling.keepsValue || subject.hasShippedRecord else {
                    return plan.left(
                        diagnostic,
                        "\"\(value)\" -> \"\(respelling.text)\" changes what new objects get, and with no lock file, --released or --against nothing shows \(name) has not shipped: write the value you mean"
                    )
                }
                spelled = respelling.text
            case .failure(let refusal): return plan.left(diagnostic, refusal.reason + ": write the value you mean")
            }
            guard let bytes = plan.bytes(of: version.contentsPath),
                let tag = StartTag.find(
                    in: bytes, element: "attribute", named: propertyName, line: line,
                    column: attribute.location.column),
                let field = tag.field("defaultValueString"), field.value == value
            else {
                return plan.left(diagnostic, "\(version.contentsPath) changed since it was read")
            }
            guard plan.replace(field.valueRange, in: version.contentsPath, with: XMLEscape.escape(spelled)) else {
                return plan.left(diagnostic, "another repair changes the same attribute")
            }
            // `YES` on a number reads 0: the respelling gives new objects the value the model editor showed.
            let changesValue = value == "YES" && attribute.type != .boolean
            done.append(
                "\(name) (\"\(value)\" -> \"\(spelled)\"\(changesValue ? ", the value the editor showed; it read 0" : ""))"
            )
        }
        let kept = named.count - unshipped.count
        plan.repaired(
            diagnostic,
            "\(entityName).\(propertyName)'s default respelled in " + done.joined(separator: ", ")
                + (kept == 0 ? "" : "; \(kept) shipped version\(kept == 1 ? "" : "s") keep\(kept == 1 ? "s" : "") it"))
    }
}
