import ModelLintRules
import ModelLintGather

/// One problem, one finding (docs/cli.md "Which findings count"): what one step did to one property can break several rules (a rename
/// guess and a new required attribute; a relationship whose destination and delete rule both changed). The
/// findings stay findings of their own in every format, but the text report lists them under the most severe
/// one (`groupedUnder`), so the property's change reads as one problem.
package enum SameElementFindings {
    package static func group(_ diagnostics: inout [Diagnostic]) {
        struct Element: Hashable {
            var from: String, to: String?, entity: String?, property: String
        }
        var members: [Element: [Int]] = [:]
        for (i, d) in diagnostics.enumerated() where d.groupedUnder == nil {
            guard let from = d.fromVersion, let property = d.property else { continue }
            members[Element(from: from, to: d.version, entity: d.entity, property: property), default: []].append(i)
        }
        for indices in members.values where indices.count > 1 {
            // The most severe heads; the first (rule order) among equals.
            var head = indices[0]
            for i in indices.dropFirst() where diagnostics[i].severity > diagnostics[head].severity { head = i }
            for i in indices where i != head { diagnostics[i].groupedUnder = diagnostics[head].ruleId }
        }
    }
}
