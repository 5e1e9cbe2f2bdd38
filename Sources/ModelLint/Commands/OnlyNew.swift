import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintGather

/// `check --against REF --only-new`: the findings the change introduces. What the work tree's run read is read
/// again with each bundle as it is at REF, in the work tree's version order (decided once, from the work tree's
/// evidence), with the same mapping models, projects, code references, lock file and golden stores; a finding is
/// old when REF's run has one with the same stable identity (`Diagnostic.stableKey`, keyed by the bundle's path in
/// the repository). Each REF finding absorbs one current finding, so a problem that now occurs twice is new once.
/// A change that touches no model therefore reports nothing new. REF's run needs only what was read, so it runs
/// beside the work tree's (`CheckCommand` starts it first): each fills the other's one-core stretches.
extension Workspace {
    /// REF's findings, by stable identity, and the repository path of each bundle both runs read.
    package struct FindingsAtRef: Sendable {
        var keyOfBundle: [String: String]
        var counts: [String: Int]
    }

    /// `report` without the findings REF already has.
    package func onlyNew(_ report: LintReport, against atRef: FindingsAtRef) -> LintReport {
        var remaining = atRef.counts
        let kept = report.diagnostics.filter { d in
            let key = d.stableKey(bundle: atRef.keyOfBundle[d.bundle] ?? d.bundle)
            guard let count = remaining[key], count > 0 else { return true }
            remaining[key] = count - 1
            return false
        }
        var filtered = LintReport(bundles: report.bundles, diagnostics: kept)
        filtered.unreadablePaths = report.unreadablePaths
        filtered.outsidePaths = report.outsidePaths
        filtered.tooLargeSwiftFiles = report.tooLargeSwiftFiles
        return filtered
    }

    /// What the run of `input`'s bundles as they are at `ref` finds.
    package func findings(at ref: String, input: LintInput, engine: Engine) throws -> FindingsAtRef {
        var reading = ReadingAtRef(ref: ref)
        var bundlesAtRef: [LintInput.Bundle] = []
        var swiftRoots: [String] = []
        for item in input.bundles {
            if let root = item.swiftDataRoot {
                if !swiftRoots.contains(root) { swiftRoots.append(root) }
                continue
            }
            if let atRef = try bundle(at: &reading, of: item) { bundlesAtRef.append(atRef) }
        }
        // SwiftData sets at REF: the same folders' Swift files at REF, shown under the work tree's paths, so a
        // finding about an unchanged declaration has the same identity on both sides.
        for root in swiftRoots {
            let repository = try history.repositories.repository(containing: root)
            let sets = try swiftDataSets(under: root, at: try reading.commit(in: repository), in: repository) {
                PathTools.display($0, relativeTo: workingDirectory)
            }
            bundlesAtRef += sets.map { LintInput.Bundle(swiftData: $0) }
        }
        var inputAtRef = input
        inputAtRef.bundles = LintInput.droppingUnmatchedMappedElsewhere(bundlesAtRef)
        // What the change does to the settings is the change's alone: nothing at REF to match it.
        inputAtRef.configurationChanges = []
        var counts: [String: Int] = [:]
        let reportAtRef = engine.run(.app(inputAtRef))
        Teardown.keep(inputAtRef)
        for d in reportAtRef.diagnostics {
            counts[d.stableKey(bundle: reading.keyOfBundle[d.bundle] ?? d.bundle), default: 0] += 1
        }
        return FindingsAtRef(keyOfBundle: reading.keyOfBundle, counts: counts)
    }

    /// What reading REF has learnt: REF resolved once per repository, and each bundle's key in its repository.
    struct ReadingAtRef {
        var ref: String
        var commits: [String: String] = [:]
        var keyOfBundle: [String: String] = [:]

        mutating func commit(in repository: GitRepository) throws -> String {
            let commit = try commits[repository.toplevel] ?? repository.resolve(ref)
            commits[repository.toplevel] = commit
            return commit
        }
    }

    /// A bundle of the work tree as it was at REF, with its history and mapping models there; nil when the change
    /// adds it (every finding about it is new).
    func bundle(at reading: inout ReadingAtRef, of item: LintInput.Bundle) throws -> LintInput.Bundle? {
        var atRef = history
        atRef.against = nil
        atRef.released = nil
        let absolute = PathTools.absolute(item.bundle.path, relativeTo: workingDirectory)
        let repository = try history.repository(forBundleAt: absolute, workingDirectory: workingDirectory)
        let key = PathTools.relative(PathTools.standardize(absolute), to: repository.toplevel) ?? absolute
        reading.keyOfBundle[item.bundle.path] = key
        let order = item.bundle.versions.map(\.name)
        let commit = try reading.commit(in: repository)
        // The bundle where it was at REF: at the same path, or where the change moved it from (a folder above it
        // renamed), so a move alone reports nothing new. Shown at the work tree's path, and read once: `--against`
        // read it for the shipped history, reusing the work tree's unchanged versions.
        guard
            var bundle = try repository.bundle(
                atPathOrWhereMovedFrom: absolute, commit: commit, label: reading.ref, following: order,
                cache: EntitySourceCache(),
                workTree: GitRepository.WorkTreeRead(displayPath: item.bundle.path, identical: [:]))
        else { return nil }
        // The order and how sure it is, and whether it ships, are the work tree's, on both sides.
        bundle.orderVerdict = item.bundle.orderVerdict
        bundle.unshippedReason = item.bundle.unshippedReason
        reading.keyOfBundle[bundle.path] = key
        let histories = try atRef.histories(
            forBundleAt: absolute, decidedOrder: order, workingDirectory: workingDirectory)
        // The same mapping model files, matched by hash against the versions as they were at REF.
        let (maps, unmatched) = MappingModelReader.match(item.mappingModelSources, versions: bundle.readableVersions)
        return LintInput.Bundle(
            bundle: bundle, settings: item.settings, mappingModels: maps, unmatchedMappingModels: unmatched,
            histories: histories, projects: item.projects)
    }
}
