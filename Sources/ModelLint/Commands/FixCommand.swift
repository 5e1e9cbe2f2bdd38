import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintRules
import ModelLintEngine
import ModelLintRepair
import ModelLintGather

/// `modellint fix [PATH…]`: applies the mechanical repairs of what `check` with the same paths and options reports,
/// says what needs a person, and exits as `check` would on the repaired tree.
package enum FixCommand {
    static let dryRun = Flag("--dry-run", help: "print the repairs as a unified diff and write nothing")
    static let only = ValueOption<String>(
        "--only", value: "RULE", help: "repair only this rule's findings (repeatable)")

    package static let options: [OptionSpec] = [
        dryRun.spec, only.spec, CheckCommand.config.spec, CheckCommand.lock.spec, CheckCommand.noLock.spec,
        CheckCommand.released.spec, CheckCommand.against.spec, CheckCommand.migration.spec,
        ReportOptions.strict.spec, helpFlag.spec,
    ]

    package static let help = ArgumentParser.helpText(
        usage: "modellint fix [PATH ...] [--dry-run] [--only RULE] [options]",
        summary: """
            Repair what check reports where the repair is mechanical (modellint explain RULE says which rules have \
            one), and say what needs a person. Writes each file atomically, inside the repository, never through a \
            symbolic link, never to a shipped version. Exits as check would on the repaired tree: 0 when no error is \
            left (and no warning under --strict), 1 otherwise.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "fix")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        if let problem = unrepairable(parsed.all(only)) { return .usageError(problem) }
        let checkOptions: CheckCommand.Options
        let judged: CheckCommand.Judged
        do {
            checkOptions = try CheckCommand.Options(parsing: checkArguments(parsed))
            judged = try CheckCommand.judge(checkOptions, environment: environment)
        } catch let stop as CheckCommand.Stop {
            return stop.output
        } catch let error as UsageError {
            return .usageError(error.message)
        } catch {
            return .usageError("\(error)")
        }
        var run = Run(
            judged: judged, checkOptions: checkOptions, only: Set(parsed.all(only)), dryRun: parsed[dryRun],
            environment: environment)
        if let failure = run.repairInPasses() {
            return CommandOutput(exitCode: CommandOutput.usage, standardError: "modellint: \(failure)\n")
        }
        return run.output()
    }

    /// Why `--only` names a rule `fix` cannot repair (a usage error), or nil.
    static func unrepairable(_ ids: [String]) -> String? {
        for id in ids where Repairs.repair(for: id) == nil {
            guard RuleRegistry.ids.contains(id) else {
                var message = "unknown rule id '\(ReportText.escaped(id))'"
                if let suggestion = Spelling.closest(to: id, in: RuleRegistry.descriptions.map(\.id)) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                return message + "; modellint rules lists them"
            }
            return "fix has no repair for '\(id)'; \(Repairs.all.count) rules have one: \(repairable)"
        }
        return nil
    }

    /// The arguments of the `check` run `fix` repairs: the same paths and the options they share. Every file is
    /// read afresh: a repair reads the bytes it replaces.
    static func checkArguments(_ parsed: ParsedArguments) -> [String] {
        var arguments = parsed.positionals + ["--no-cache"]
        if let value = parsed[CheckCommand.config] { arguments += ["--config", value] }
        if let value = parsed[CheckCommand.lock] { arguments += ["--lock", value] }
        if parsed[CheckCommand.noLock] { arguments.append("--no-lock") }
        if let value = parsed[CheckCommand.released] { arguments += ["--released", value] }
        if let value = parsed[CheckCommand.against] { arguments += ["--against", value] }
        if let value = parsed[CheckCommand.migration] { arguments += ["--migration", value.rawValue] }
        if parsed[ReportOptions.strict] { arguments.append("--strict") }
        return arguments
    }

    /// One `fix`: the run it repairs, what each pass wrote (or, dry, would write), and the tree's verdict after.
    struct Run {
        let judged: CheckCommand.Judged
        let checkOptions: CheckCommand.Options
        let only: Set<String>
        let dryRun: Bool
        let environment: CommandEnvironment
        var input: LintInput
        var after: LintReport
        var written = WrittenFiles()
        var repaired: [RepairPlan.Outcome] = []
        var left: [RepairPlan.Outcome] = []
        var projectNotes = ""
        var errors = ""

        init(
            judged: CheckCommand.Judged, checkOptions: CheckCommand.Options, only: Set<String>, dryRun: Bool,
            environment: CommandEnvironment
        ) {
            self.judged = judged
            self.checkOptions = checkOptions
            self.only = only
            self.dryRun = dryRun
            self.environment = environment
            input = judged.input
            after = judged.report
        }

        /// A repair can make another finding repairable (a new version that copies a default a shipped version
        /// keeps): passes until nothing is left to repair, so a second `fix` changes nothing. The reason when a
        /// write failed.
        mutating func repairInPasses() -> String? {
            for _ in 0..<FixCommand.passes {
                let plan = RepairPlanner.plan(after.diagnostics, subjects: subjects(), only: only, read: reader())
                repaired += plan.outcomes.filter(\.repaired)
                left = plan.outcomes.filter { !$0.repaired }
                guard !plan.changedFiles.isEmpty || !plan.newVersions.isEmpty else { return nil }
                written.record(plan)
                if dryRun {
                    projectNotes += plan.newVersions.map { projectNote(adding: $0, dryRun: true) }.joined()
                    // The repaired tree as check would judge it: the changed versions read from their new bytes.
                    input = FixCommand.repaired(input, by: plan)
                    after = judged.engine.run(.app(input))
                    continue
                }
                if let failure = FixCommand.apply(plan, environment: environment) { return failure }
                projectNotes += plan.newVersions.map { projectNote(adding: $0, dryRun: false) }.joined()
                // The repaired tree as check judges it, read again.
                do {
                    let again = try CheckCommand.judge(checkOptions, environment: environment)
                    (input, after) = (again.input, again.report)
                } catch {
                    errors += "modellint: the repaired tree could not be checked: \(error)\n"
                    return nil
                }
            }
            return nil
        }

        /// Each bundle of the run as a repair sees it.
        func subjects() -> [RepairSubject] {
            let workingDirectory = environment.workingDirectory
            return input.bundles.map { item in
                var subject = RepairSubject(
                    bundle: item.bundle, shipped: Linter.shipped(item),
                    shippedContents: { name in
                        FixCommand.shippedContents(of: name, in: item, workingDirectory: workingDirectory)
                    })
                subject.hasShippedRecord = !item.histories.isEmpty
                subject.renamed = item.settings?.renamed ?? []
                return subject
            }
        }

        /// A file as the passes left it: what they wrote, else the disk's bytes.
        func reader() -> @Sendable (String) -> [UInt8]? {
            let (overlay, workingDirectory) = (written, environment.workingDirectory)
            return { display in
                if let bytes = overlay.now[display] { return bytes }
                return try? FileReader.readBytes(
                    PathTools.absolute(display, relativeTo: workingDirectory), limit: FileReader.Limit.contents)
            }
        }

        /// The projects that list a new version's bundle, updated (or, dry, what would be).
        func projectNote(adding version: RepairPlan.NewVersion, dryRun: Bool) -> String {
            NewVersionCommand.updateProjects(
                adding: version.name,
                bundleAt: PathTools.absolute(version.bundlePath, relativeTo: environment.workingDirectory),
                environment: environment, dryRun: dryRun)
        }

        /// The diff (dry), the projects' notes and the summary; the exit code `check` gives the repaired tree.
        func output() -> CommandOutput {
            var text = ""
            if dryRun {
                for path in written.order {
                    text += UnifiedDiff.diff(
                        old: written.original[path] ?? nil, new: written.now[path],
                        path: FixCommand.repositoryPath(of: path, environment))
                }
            }
            text += projectNotes
            text += FixCommand.summary(
                repaired + left, files: written.order.count, before: judged.report, after: after, dryRun: dryRun)
            return CommandOutput(
                exitCode: checkOptions.report.exitCode(for: after), standardOutput: text, standardError: errors)
        }
    }

    /// At most this many passes of repairs (each can only make what the one before wrote repairable).
    static let passes = 3

    /// What the passes wrote (or, in a dry run, would write), by display path: the bytes first read (nil: the file
    /// did not exist) and the bytes now.
    struct WrittenFiles {
        var order: [String] = []
        var original: [String: [UInt8]?] = [:]
        var now: [String: [UInt8]] = [:]

        mutating func record(_ plan: RepairPlan) {
            for version in plan.newVersions { note(version.contentsPath, original: nil, now: version.contents) }
            for file in plan.changedFiles {
                note(file.path, original: file.existed ? file.original : nil, now: file.result)
            }
        }

        private mutating func note(_ path: String, original bytes: [UInt8]?, now bytes2: [UInt8]) {
            if original[path] == nil {
                order.append(path)
                original[path] = .some(bytes)
            }
            now[path] = bytes2
        }
    }

    /// Writes one pass's plan: new versions first (until the pointer names one, the bundle is as it was), then the
    /// changed files. The reason when it stopped.
    static func apply(_ plan: RepairPlan, environment: CommandEnvironment) -> String? {
        for version in plan.newVersions {
            let bundle = URL(
                fileURLWithPath: PathTools.absolute(version.bundlePath, relativeTo: environment.workingDirectory))
            do {
                try NewVersionCommand.add(
                    version: version.name, contents: Data(version.contents), in: bundle, display: version.bundlePath)
            } catch let failure as NewVersionCommand.Failure {
                return failure.message
            } catch {
                return "could not add \(version.name) (\(error))"
            }
        }
        for file in plan.changedFiles {
            if let failure = write(file, environment: environment) { return failure }
        }
        return nil
    }

    /// The run's input with the plan applied in memory: changed versions read from their new bytes, new versions
    /// added and made current.
    static func repaired(_ input: LintInput, by plan: RepairPlan) -> LintInput {
        var input = input
        for b in input.bundles.indices {
            var bundle = input.bundles[b].bundle
            for file in plan.changedFiles {
                for v in bundle.versions.indices where bundle.versions[v].contentsPath == file.path {
                    bundle.versions[v].content = ContentsParser.parse(bytes: file.result, path: file.path, cache: nil)
                }
            }
            for version in plan.newVersions where version.bundlePath == bundle.path {
                let folder = bundle.path + "/" + version.name + ".xcdatamodel"
                bundle.versions.append(
                    ModelVersion(
                        name: version.name, folderPath: folder, contentsPath: version.contentsPath,
                        content: ContentsParser.parse(bytes: version.contents, path: version.contentsPath, cache: nil)))
                bundle.declaredCurrentVersion = version.name
            }
            input.bundles[b].bundle = bundle
        }
        return input
    }

    /// A shipped version's `contents` as it shipped: at `--released`'s or `--against`'s revision, or, for a lock
    /// file's record, at the newest commit whose bytes have the digest the lock records.
    static func shippedContents(of name: String, in item: LintInput.Bundle, workingDirectory: String)
        -> Result<ShippedContents, RepairRefusal>
    {
        let absolute = PathTools.standardize(PathTools.absolute(item.bundle.path, relativeTo: workingDirectory))
        guard let repository = try? GitRepository(containing: (absolute as NSString).deletingLastPathComponent),
            let bundle = PathTools.relative(absolute, to: repository.toplevel)
        else {
            return .failure(
                RepairRefusal("\(item.bundle.path) is not in a git repository: no revision to restore from"))
        }
        let contents = bundle + "/" + name + ".xcdatamodel/contents"
        for history in item.histories {
            guard let recorded = history.versions.first(where: { $0.name.isExactly(name) }) else { continue }
            do {
                switch history.source {
                case .released(let ref), .against(let ref):
                    let commit = try repository.resolve(ref)
                    let folder = repository.movedFrom(bundle, since: commit) ?? bundle
                    let path = folder + "/" + name + ".xcdatamodel/contents"
                    if let data = try repository.fileBytes(path, at: commit, limit: FileReader.Limit.contents) {
                        return .success(
                            ShippedContents(bytes: Array(data), revision: "\(ref) (\(commit.prefix(7)))"))
                    }
                case .lockFile(let lock):
                    for commit in try repository.commits(touching: contents, limit: 500) {
                        guard
                            let data = try repository.fileBytes(contents, at: commit, limit: FileReader.Limit.contents),
                            case .model(let model) = ContentsParser.parse(
                                bytes: Array(data), path: contents, cache: nil)
                        else { continue }
                        let verdict = recorded.digest.compare(with: model)
                        if !verdict.schemaChanged && !verdict.contentChanged {
                            return .success(
                                ShippedContents(
                                    bytes: Array(data), revision: "\(commit.prefix(7)) (the digest \(lock) records)"))
                        }
                    }
                    return .failure(
                        RepairRefusal(
                            "no commit of \(contents) in the last 500 that touched it has the digest \(lock) records"))
                }
            } catch {
                return .failure(RepairRefusal("\(error)"))
            }
        }
        return .failure(RepairRefusal("no shipped record of \(name) says which revision to restore it from"))
    }

    static var repairable: String { Repairs.all.map { type(of: $0).ruleID }.joined(separator: ", ") }

    /// What was repaired, what needs a person (with the finding), and the findings left.
    static func summary(
        _ outcomes: [RepairPlan.Outcome], files: Int, before: LintReport, after: LintReport, dryRun: Bool
    ) -> String {
        var text = ""
        for outcome in outcomes {
            let d = outcome.diagnostic
            let place = "\(d.file)" + (d.line.map { ":\($0)" } ?? "")
            let verb = outcome.repaired ? (dryRun ? "would repair" : "repaired") : "needs a person"
            // Each line escaped on its own: an outcome may show an edit as indented diff lines.
            text +=
                outcome.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                    ReportText.escaped(
                        $0.offset == 0 ? "\(verb): \(place): \(d.ruleId): \($0.element)" : String($0.element))
                }.joined(separator: "\n") + "\n"
            if !outcome.repaired { text += ReportText.escaped("  finding: \(d.message)") + "\n" }
        }
        let repaired = outcomes.filter(\.repaired).count
        let left = outcomes.count - repaired
        // A repair must not make a problem: an error or warning the run did not have before is said.
        let known = Set(before.diagnostics.map { $0.stableKey(bundle: $0.bundle) })
        let new = after.diagnostics.filter { $0.severity != .note && !known.contains($0.stableKey(bundle: $0.bundle)) }
            .count
        text +=
            "\(dryRun ? "would repair" : "repaired") \(repaired) finding\(repaired == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"); \(left) need\(left == 1 ? "s" : "") a person"
        text +=
            "; after: \(after.errorCount) error\(after.errorCount == 1 ? "" : "s"), \(after.warningCount) warning\(after.warningCount == 1 ? "" : "s")"
        if new > 0 { text += ", \(new) new finding\(new == 1 ? "" : "s") (run check)" }
        return text + "\n"
    }

    /// A path as a diff header names it: relative to the repository's top when in one, else to the working folder.
    static func repositoryPath(of display: String, _ environment: CommandEnvironment) -> String {
        let absolute = PathTools.standardize(PathTools.absolute(display, relativeTo: environment.workingDirectory))
        if let top = try? GitRepository(containing: (absolute as NSString).deletingLastPathComponent).toplevel,
            let relative = PathTools.relative(absolute, to: top)
        {
            return relative
        }
        return PathTools.relative(absolute, to: PathTools.standardize(environment.workingDirectory)) ?? display
    }

    /// Writes one repaired file atomically; refuses a file that is, or sits in a version folder or bundle that is,
    /// a symbolic link, and one that changed since it was read. The reason when it did not write.
    static func write(_ file: FileEdits, environment: CommandEnvironment) -> String? {
        let path = PathTools.absolute(file.path, relativeTo: environment.workingDirectory)
        let version = (path as NSString).deletingLastPathComponent
        let bundle = (version as NSString).deletingLastPathComponent
        for link in [path, version, bundle] where FileReader.isSymbolicLink(link) {
            return "\(ReportText.escaped(file.path)): not written: \(ReportText.escaped(link)) is a symbolic link"
        }
        do {
            try FileWriter.withLock(on: path) {
                let unchanged =
                    file.existed
                    ? try FileReader.readBytes(path, limit: FileReader.Limit.contents) == file.original
                    : !FileReader.entryExists(at: path)
                guard unchanged else {
                    throw FileWriter.WriteError(path: file.path, reason: "it changed while fix ran; nothing written")
                }
                try FileWriter.write(
                    Data(file.result), to: path,
                    confinedTo: .named(path, workingDirectory: environment.workingDirectory, followsLinks: false))
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
