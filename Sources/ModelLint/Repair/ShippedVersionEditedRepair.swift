import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// `shipped-version-edited` (and `version-edited-after-superseded`, the same edit as `--against` sees it): the
/// shipped version's `contents` restored byte for byte from the revision that shipped it. When it is the newest
/// version, the edit moves into a new version (named as `new-version` names it) that becomes current; when versions
/// follow it, the edit is shown for a person to make in the newest one. A copy of the edited version is never made
/// current over later versions: that would silently revert their changes.
package struct ShippedVersionEditedRepair: Repair {
    package static let ruleID = "shipped-version-edited"
    package static let summary =
        "it restores the version byte for byte from the revision that shipped it (the lock's digest found in git history, --released or --against) and, when it is the newest version, moves the edit into a new current version; when later versions exist, it shows the edit for a person to make there."

    package init() {}

    /// `version-edited-after-superseded`: the same edit, seen at `--against`.
    package struct AfterSuperseded: Repair {
        package static let ruleID = "version-edited-after-superseded"
        package static let summary = ShippedVersionEditedRepair.summary
        package init() {}
        package func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
            ShippedVersionEditedRepair.restore(diagnostic, in: subject, plan: &plan)
        }
    }

    package func repair(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
        Self.restore(diagnostic, in: subject, plan: &plan)
    }

    static func restore(_ diagnostic: Diagnostic, in subject: RepairSubject, plan: inout RepairPlan) {
        guard let name = diagnostic.version,
            let index = subject.bundle.versions.firstIndex(where: {
                $0.name.isExactly(name)
            })
        else {
            return plan.left(diagnostic, "the version was not found as read")
        }
        let version = subject.bundle.versions[index]
        let shipped: ShippedContents
        switch subject.shippedContents(name) {
        case .success(let found): shipped = found
        case .failure(let refusal): return plan.left(diagnostic, refusal.reason + "; nothing was changed")
        }
        guard let edited = plan.bytes(of: version.contentsPath) else {
            return plan.left(diagnostic, "\(version.contentsPath) cannot be read; nothing was changed")
        }
        guard edited != shipped.bytes else {
            return plan.left(diagnostic, "\(version.contentsPath) is already as it shipped at \(shipped.revision)")
        }
        let isNewest = index == subject.bundle.versions.count - 1
        if isNewest {
            guard let next = VersionOrder.nextName(after: name) else {
                return plan.left(
                    diagnostic,
                    "cannot tell what comes after '\(name)': run modellint new-version with --name, move the edit there, and restore \(name) as it shipped at \(shipped.revision)"
                )
            }
            guard !subject.bundle.versions.contains(where: { $0.name.lowercased() == next.lowercased() }) else {
                return plan.left(diagnostic, "\(subject.bundle.path) already has a version named like \(next)")
            }
            guard plan.addVersion(next, to: subject.bundle.path, contents: edited),
                plan.replaceWhole(
                    subject.bundle.currentVersionFilePath, with: CurrentVersionPointer.bytes(naming: next),
                    mayCreate: true),
                plan.replaceWhole(version.contentsPath, with: shipped.bytes)
            else {
                return plan.left(diagnostic, "another repair changes the same bundle")
            }
            return plan.repaired(
                diagnostic,
                "restored \(name) as it shipped at \(shipped.revision), and moved the edit into a new version \(next), now current"
            )
        }
        guard plan.replaceWhole(version.contentsPath, with: shipped.bytes) else {
            return plan.left(diagnostic, "another repair changes the same version")
        }
        let newest = subject.bundle.versions[subject.bundle.versions.count - 1].name
        let edit = UnifiedDiff.diff(old: shipped.bytes, new: edited, path: version.contentsPath)
        plan.repaired(
            diagnostic,
            "restored \(name) as it shipped at \(shipped.revision); the edit was not carried into \(newest): make it there if it is still wanted:\n"
                + edit.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    " + $0 }
                .joined(separator: "\n"))
    }
}
