import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintSwiftData
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintGather

package enum CheckCommand {
    static let only = ValueOption<String>("--only", value: "RULE", help: "report only this rule (repeatable)")
    static let disable = ValueOption<String>("--disable", value: "RULE", help: "do not run this rule (repeatable)")
    static let statistics = Flag(
        "--statistics", help: "text format: end with a table of findings per rule and severity")
    static let output = ValueOption<String>(
        "--output", value: "FILE", help: "write the report to FILE instead of standard output")
    static let stamp = ValueOption<String>(
        "--stamp", value: "FILE", help: "build systems: write FILE when the run passes, remove it when it fails")
    static let report = ValueOption<String>(
        "--report", value: "FORMAT=FILE",
        help: "also write the same findings as FORMAT to FILE (repeatable; one run, several reports)")
    static let config = configOption("configuration file (default: the .modellint.json nearest each bundle)")
    static let migration = migrationOption(
        "how the app migrates: direct (default: older stores migrate in one hop) or progressive")
    static let lock = ValueOption<String>(
        "--lock", value: "FILE",
        help: "lock file to verify (default: modellint.lock next to the configuration, or here)")
    static let noLock = Flag("--no-lock", help: "verify no lock file, not even the default one")
    static let includeUnshipped = Flag(
        "--include-unshipped",
        help: "judge bundles nothing builds (bundle-not-shipped) at full severity, as the app's own model")
    static let noCache = Flag(
        "--no-cache", help: "read every file afresh; keep nothing in the cache folder (MODELLINT_CACHE_DIR)")
    static let against = ValueOption<String>(
        "--against", value: "REF",
        help: "also compare with the bundles at git revision REF (pull requests: origin/main)")
    static let onlyNew = Flag(
        "--only-new",
        help: "with --against REF: report only findings REF does not already have (matched by stable identity)")
    static let released = ValueOption<String>(
        "--released", value: "REF", help: "every version present at git revision REF counts as shipped (a release tag)")
    static let baseline = ValueOption<String>(
        "--baseline", value: "FILE", help: "do not report findings recorded in FILE")
    static let writeBaseline = ValueOption<String>(
        "--write-baseline", value: "FILE", help: "record all current findings in FILE and exit 0")
    static let quiet = Flag("--quiet", help: "print nothing when there are no findings")
    static let preCommit = Flag(
        "--pre-commit",
        help:
            "as a pre-commit hook: the files given plus staged deletions and configuration or lock changes; nothing else to lint is success"
    )

    package static let options: [OptionSpec] =
        [
            ReportOptions.format.spec, only.spec, disable.spec, statistics.spec, output.spec, stamp.spec, report.spec,
            config.spec, ReportOptions.strict.spec, migration.spec, lock.spec, noLock.spec, noCache.spec,
            includeUnshipped.spec, against.spec, onlyNew.spec,
            released.spec, baseline.spec, writeBaseline.spec, quiet.spec, preCommit.spec,
        ] + ReportOptions.outputFlags

    /// `check`'s arguments, parsed and typed.
    package struct Options: Sendable {
        package var paths: [String]
        package var report: ReportOptions
        package var only: [String]
        package var disable: [String]
        package var stamp: String?
        /// `--report FORMAT=FILE`, each checked.
        package var extraReports: [(format: ReportFormat, file: String)] = []
        package var config: String?
        package var migration: MigrationMode?
        package var lock: String?
        package var noLock: Bool
        package var noCache: Bool
        package var includeUnshipped: Bool
        package var against: String?
        package var onlyNew: Bool
        package var released: String?
        package var baseline: String?
        package var writeBaseline: String?
        package var quiet: Bool
        package var preCommit: Bool
        package var help: Bool
        /// The configuration already loaded for this run or part (a default one for bundles none governs), and
        /// the commit's selection made once for every part.
        var configuration: Configuration?
        var staged: PreCommitPaths.Selection?
        /// A part of a run split by configuration: it lints the bundles in `paths`, from the commit's selection.
        var isPart = false
        /// The part that also searches the whole run's paths for SwiftData schemas.
        var swiftDataSearch: [String]?
        /// The repositories the split discovered, shared with every part.
        var repositories: RepositoryCache?

        package init(parsing arguments: [String]) throws {
            let parsed = try ArgumentParser.parse(arguments, options: CheckCommand.options, command: "check")
            paths = parsed.positionals
            report = ReportOptions(parsed)
            report.output = parsed[CheckCommand.output]
            report.statistics = parsed[CheckCommand.statistics]
            only = parsed.all(CheckCommand.only)
            disable = parsed.all(CheckCommand.disable)
            stamp = parsed[CheckCommand.stamp]
            config = parsed[CheckCommand.config]
            migration = parsed[CheckCommand.migration]
            lock = parsed[CheckCommand.lock]
            noLock = parsed[CheckCommand.noLock]
            noCache = parsed[CheckCommand.noCache]
            includeUnshipped = parsed[CheckCommand.includeUnshipped]
            against = parsed[CheckCommand.against]
            onlyNew = parsed[CheckCommand.onlyNew]
            released = parsed[CheckCommand.released]
            baseline = parsed[CheckCommand.baseline]
            writeBaseline = parsed[CheckCommand.writeBaseline]
            quiet = parsed[CheckCommand.quiet]
            preCommit = parsed[CheckCommand.preCommit]
            help = parsed[helpFlag]
            for request in parsed.all(CheckCommand.report) {
                let (name, file) = request.split(separator: "=", maxSplits: 1).map(String.init).splitPair
                guard let format = ReportFormat(rawValue: name), !file.isEmpty else {
                    let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(
                        "--report takes FORMAT=FILE with FORMAT one of \(formats), not '\(ReportText.escaped(request))'"
                    )
                }
                extraReports.append((format, file))
            }
        }
    }

    package static let help = ArgumentParser.helpText(
        usage: "modellint check [PATH ...] [options]",
        summary: """
            Lint .xcdatamodeld bundles. PATH is a bundle, a directory (searched recursively, skipping .build,
            DerivedData, Pods, Carthage and .git), or any file inside a bundle. With no PATH, the current directory.
            """,
        options: options)

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        ModelLintApp.run(["check"] + arguments, environment: environment)
    }

    /// Lints and writes the report, as it is produced, to standard output or `--output`.
    package static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        let prepared: (report: LintReport, options: Options, exitCode: Int32, notices: [String])
        switch prepare(arguments, environment: environment) {
        case .failure(let output):
            streams.standardOutput.write(output.standardOutput)
            streams.standardError.write(output.standardError)
            return output.exitCode
        case .success(let value):
            prepared = value
        }
        let (report, options, exitCode, notices) = prepared
        // --quiet silences the terminal, never a report file: a stale --output must not survive a clean run.
        // Notes the text report would not list are nothing to print either (a plain git hook stays silent).
        let quiet =
            options.quiet
            && report.diagnostics.allSatisfy { $0.severity == .note && !options.report.notes }
        if !quiet { streams.standardError.write(self.notices(report, notices)) }
        if let stamp = options.stamp,
            let failed = writeStamp(stamp, passed: exitCode == CommandOutput.success, report, environment, streams)
        {
            return failed
        }
        // Extra reports of the same findings (`--report sarif=out.sarif`): one lint, every format CI wants.
        for (format, file) in options.extraReports {
            var asked = options.report
            asked.format = format
            asked.output = file
            if let failed = writeReportFile(
                report, to: file, options: asked, environment: environment, streams: streams)
            {
                return failed
            }
        }
        if quiet && options.report.output == nil { return exitCode }
        if let output = options.report.output {
            return writeReportFile(
                report, to: output, options: options.report, environment: environment, streams: streams)
                ?? exitCode
        }
        options.report.write(report, to: streams.standardOutput, environment: environment)
        return exitCode
    }

    /// What the run says on standard error beside its report: names it skipped, baseline notes, files it did not
    /// read.
    static func notices(_ report: LintReport, _ notices: [String]) -> String {
        var text = ""
        for name in report.unreadablePaths where name.contains(".xcdatamodel") {
            text += "modellint: skipped \(ReportText.escaped(name)): its name is not valid UTF-8\n"
        }
        for notice in notices { text += "modellint: \(notice)\n" }
        if !report.outsidePaths.isEmpty {
            let count = report.outsidePaths.count
            text +=
                "modellint: not read: \(count) file\(count == 1 ? "" : "s") that resolve\(count == 1 ? "s" : "") outside the repository through a symbolic link (\(firstFive(report.outsidePaths)))\n"
        }
        if !report.tooLargeSwiftFiles.isEmpty {
            let count = report.tooLargeSwiftFiles.count
            text +=
                "modellint: not read for SwiftData schemas: \(count) Swift file\(count == 1 ? "" : "s") over \(SwiftDataLoader.sizeLimit >> 20) MB (\(firstFive(report.tooLargeSwiftFiles)))\n"
        }
        return text
    }

    /// `--stamp`: a build system reruns a command whose output is missing, so the stamp exists only after a passing
    /// run. Its one line is a `//` comment, so a stamp named `.swift` is a source file that compiles to nothing: the
    /// build-tool plugin names it so, because SwiftPM copies every other kind of build output into the app's
    /// resource bundle. Never followed into or deleted through a symlink: the stamp is ours, not a path into the
    /// repository. The exit code when it cannot be written.
    private static func writeStamp(
        _ stamp: String, passed: Bool, _ report: LintReport, _ environment: CommandEnvironment,
        _ streams: CommandStreams
    ) -> Int32? {
        let path = PathTools.absolute(stamp, relativeTo: environment.workingDirectory)
        do {
            let confinement = FileWriter.Confinement.named(
                path, workingDirectory: environment.workingDirectory, followsLinks: false)
            if passed {
                try FileWriter.write(
                    Data(
                        "// modellint: \(report.bundles.count) bundles, \(report.errorCount) errors, \(report.warningCount) warnings\n"
                            .utf8),
                    to: path, confinedTo: confinement)
            } else {
                try FileWriter.remove(path, confinedTo: confinement)
            }
            return nil
        } catch {
            streams.standardError.write("modellint: --stamp \(stamp): \(error)\n")
            return CommandOutput.usage
        }
    }

    /// Writes a report file atomically under its lock; the exit code of the failure when it cannot.
    private static func writeReportFile(
        _ report: LintReport, to file: String, options: ReportOptions, environment: CommandEnvironment,
        streams: CommandStreams
    ) -> Int32? {
        let path = PathTools.absolute(file, relativeTo: environment.workingDirectory)
        do {
            try FileWriter.withLock(on: path) {
                try FileWriter.write(to: path, confinedTo: .named(path, workingDirectory: environment.workingDirectory))
                {
                    options.write(report, to: $0, environment: environment)
                }
            }
            return nil
        } catch {
            streams.standardError.write("modellint: \(error)\n")
            return CommandOutput.usage
        }
    }

    /// A failed command's output, or the report and what the run's exit code is.
    private enum Prepared {
        case failure(CommandOutput)
        /// `notices`: lines for standard error, said unless `--quiet` has nothing to say.
        case success((report: LintReport, options: Options, exitCode: Int32, notices: [String]))
    }

    private static func prepare(_ arguments: [String], environment: CommandEnvironment) -> Prepared {
        var options: Options
        do {
            options = try Options(parsing: arguments)
        } catch {
            return .failure(.usageError("\(error)"))
        }
        if options.help { return .failure(CommandOutput(exitCode: 0, standardOutput: help)) }
        guard let runCache = CheckRunCache(arguments, options: options, environment: environment) else {
            return prepare(parsed: options, environment: environment)
        }
        if let kept = runCache.lookup() {
            return .success((kept.report, options, options.report.exitCode(for: kept.report), kept.notices))
        }
        let log = InputLog.start(excluding: runCache.folder)
        let prepared = prepare(parsed: options, environment: environment)
        let consulted = log.finish()
        if case .success(let value) = prepared {
            runCache.store(value.report, notices: value.notices, consulted: consulted)
        }
        return prepared
    }

    private static func prepare(parsed options: Options, environment: CommandEnvironment) -> Prepared {
        var options = options
        if options.config == nil {
            options.repositories = RepositoryCache()
            switch splitByConfiguration(options, environment: environment) {
            case .failure(let output): return .failure(output)
            case .whole(let staged, let configuration):
                options.staged = staged
                options.configuration = configuration
            case .parts(var parts):
                // One baseline for the whole run, written from every part's findings.
                for i in parts.indices { parts[i].writeBaseline = nil }
                let combined = combine(parts.map { prepare(options: $0, environment: environment) }, options)
                guard let path = options.writeBaseline, case .success(let value) = combined else { return combined }
                return writeBaseline(value.report, to: path, repositories: options.repositories!, environment)
            }
        }
        return prepare(options: options, environment: environment)
    }

    /// How a run without `--config` goes: as one part, when every bundle answers to the configuration found from
    /// the working directory; else one part per configuration, each bundle with the one nearest to it.
    private enum Split {
        case failure(CommandOutput)
        /// The working directory's configuration, loaded once (nil: the part that reads it says what is wrong).
        case whole(staged: PreCommitPaths.Selection?, configuration: Configuration?)
        case parts([Options])
    }

    /// Each bundle answers to the `.modellint.json` nearest to it, searched from its folder up to its repository's
    /// top (as git and SwiftLint search from the file), and to the `modellint.lock` beside that configuration, else
    /// nearest to it: a bundle of another repository never gets this one's rules or shipped versions.
    /// Paths a notice names: the first five, escaped, and how many more.
    static func firstFive(_ paths: [String]) -> String {
        ReportText.list(paths.prefix(5).map(ReportText.escaped))
            + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
    }

    private static func splitByConfiguration(_ options: Options, environment: CommandEnvironment) -> Split {
        let here: Configuration
        do { here = try loadConfiguration(nil, environment: environment) } catch {
            return .failure(.usageError("configuration error: \(error)"))
        }
        let repositories = options.repositories ?? RepositoryCache()
        var paths = options.paths
        var staged: PreCommitPaths.Selection?
        if options.preCommit {
            do {
                staged = try PreCommitPaths.select(
                    given: paths, workingDirectory: environment.workingDirectory, repositories: repositories)
            } catch {
                return .failure(.usageError("\(error)"))
            }
            paths = staged!.paths
            if paths.isEmpty { return .whole(staged: staged, configuration: here) }
        }
        let selections: [BundleFinder.Selection]
        do {
            selections = try BundleFinder(
                workingDirectory: environment.workingDirectory, exclude: here.exclude,
                excludeBase: here.baseDirectory, walker: DirectoryWalker(budget: here.walkBudget)
            ).bundles(for: paths)
        } catch {
            // The part that reads the bundles says what is wrong, as it always has.
            return .whole(staged: staged, configuration: here)
        }
        let nearest = { (name: String, folder: String) -> String? in
            PathTools.nearest(
                name, from: folder, stoppingAt: (try? repositories.repository(containing: folder))?.toplevel)
        }
        var order: [String?] = []
        var groups: [String?: [BundleFinder.Selection]] = [:]
        for selection in selections {
            let folder = (selection.absolutePath as NSString).deletingLastPathComponent
            let file = nearest(Configuration.fileName, folder).map(PathTools.standardize)
            if groups[file] == nil { order.append(file) }
            groups[file, default: []].append(selection)
        }
        let hereFile = here.filePath.map {
            PathTools.standardize(PathTools.absolute($0, relativeTo: environment.workingDirectory))
        }
        if order.count <= 1 && (order.first ?? hereFile) == hereFile {
            return .whole(staged: staged, configuration: here)
        }
        do {
            return .parts(
                try parts(
                    of: options, order: order, groups: groups, hereFile: hereFile, staged: staged, nearest: nearest))
        } catch {
            return .failure(.usageError("configuration error: \(error)"))
        }
    }

    /// One part per configuration file (nil: the bundles no file governs), each with its bundles, its configuration
    /// and the lock file nearest it.
    private static func parts(
        of options: Options, order: [String?], groups: [String?: [BundleFinder.Selection]], hereFile: String?,
        staged: PreCommitPaths.Selection?, nearest: (String, String) -> String?
    ) throws -> [Options] {
        var parts: [Options] = []
        for file in order {
            var part = options
            let members = groups[file] ?? []
            let folder = (members[0].absolutePath as NSString).deletingLastPathComponent
            part.paths = members.map(\.absolutePath)
            part.staged = staged
            part.isPart = true
            part.configuration =
                try file.map { try Configuration.load(path: $0, knownRuleIDs: RuleRegistry.ids) }
                ?? Configuration(baseDirectory: folder)
            if options.lock == nil && !options.noLock {
                let from = file.map { ($0 as NSString).deletingLastPathComponent } ?? folder
                if let lock = nearest(LockFile.fileName, from) { part.lock = lock } else { part.noLock = true }
            }
            parts.append(part)
        }
        // SwiftData schemas are found by searching the run's paths, which no part's bundle paths do: the part that
        // answers to the working directory's configuration searches them (else the first part).
        if let index = order.firstIndex(where: { $0 == hereFile }) ?? (parts.isEmpty ? nil : 0), !options.preCommit {
            parts[index].swiftDataSearch = options.paths
        }
        return parts
    }

    /// The parts' reports as one: every bundle and finding, the worst exit code, every notice; a baseline written
    /// from all of them.
    private static func combine(_ parts: [Prepared], _ options: Options) -> Prepared {
        var bundles: [BundleSummary] = []
        var diagnostics: [Diagnostic] = []
        var unreadable: [String] = []
        var outside: [String] = []
        var tooLarge: [String] = []
        var notices: [String] = []
        for part in parts {
            switch part {
            case .failure(let output): return .failure(output)
            case .success(let value):
                bundles += value.report.bundles
                diagnostics += value.report.diagnostics
                unreadable += value.report.unreadablePaths
                outside += value.report.outsidePaths
                tooLarge += value.report.tooLargeSwiftFiles
                notices += value.notices
            }
        }
        // A lock file two parts share is judged by each: its findings once.
        var seen = Set<String>()
        diagnostics = diagnostics.filter {
            seen.insert(
                [$0.ruleId, $0.file, "\($0.line ?? 0)", "\($0.column ?? 0)", $0.message].joined(separator: "\u{1F}")
            )
            .inserted
        }
        var report = LintReport(bundles: bundles, diagnostics: diagnostics)
        report.unreadablePaths = unreadable
        report.outsidePaths = outside
        report.tooLargeSwiftFiles = tooLarge
        return .success((report, options, options.report.exitCode(for: report), notices))
    }

    /// Where a run stops early: with this output (a usage error, or a pre-commit run with nothing to say).
    package struct Stop: Error {
        var output: CommandOutput
        static func usage(_ message: String) -> Stop { Stop(output: .usageError(message)) }
        static let nothingToSay = Stop(output: CommandOutput(exitCode: CommandOutput.success))
    }

    private static func prepare(options: Options, environment: CommandEnvironment) -> Prepared {
        do {
            let (configuration, engine, prepared) = try setUp(options, environment: environment)
            var workspace = prepared
            let paths = try preCommitPaths(options, workspace: &workspace, environment: environment)
            let (input, judged, findingsAtRef) = try judge(
                options, paths: paths, engine: engine, workspace: workspace)
            try requireSomethingFound(input, options: options, paths: paths)
            var report = onlyFilter(judged, only: options.only)
            var notices: [String] = []
            try applyBaseline(
                to: &report, notices: &notices, options: options, configuration: configuration, workspace: workspace,
                environment: environment)
            if options.onlyNew {
                // Nil only without --against: REF's run was started beside the work tree's otherwise.
                guard let findingsAtRef else {
                    throw Stop.usage("--only-new needs --against REF (the revision whose findings are not new)")
                }
                do {
                    report = workspace.onlyNew(report, against: try findingsAtRef.get())
                } catch {
                    throw Stop.usage("\(error)")
                }
            }
            if let path = options.writeBaseline {
                return writeBaseline(report, to: path, repositories: workspace.history.repositories, environment)
            }
            return .success((report, options, options.report.exitCode(for: report), notices))
        } catch let stop as Stop {
            return .failure(stop.output)
        } catch {
            return .failure(.usageError("\(error)"))
        }
    }

    /// The run's configuration (its rules selected), engine and workspace.
    private static func setUp(_ options: Options, environment: CommandEnvironment) throws -> (
        Configuration, Engine, Workspace
    ) {
        var configuration: Configuration
        do {
            configuration = try options.configuration ?? loadConfiguration(options.config, environment: environment)
        } catch {
            throw Stop.usage("configuration error: \(error)")
        }
        do {
            try selectRules(only: options.only, disabled: options.disable, into: &configuration)
        } catch {
            throw Stop.usage("\(error)")
        }
        if options.includeUnshipped { configuration.includeUnshipped = true }
        let engine = Engine(configuration: configuration, migration: options.migration)
        var workspace = Workspace(configuration: configuration, workingDirectory: environment.workingDirectory)
        if !options.noCache { workspace.cache = .standard(environment: environment.variables) }
        workspace.swiftDataSearch = options.swiftDataSearch
        workspace.gateRevision = options.against
        workspace.baselineFile =
            options.baseline.map { PathTools.absolute($0, relativeTo: environment.workingDirectory) }
            ?? configuration.baseline
        do {
            workspace.history = try historyOptions(options, configuration: configuration, environment: environment)
        } catch {
            throw Stop.usage("\(error)")
        }
        return (configuration, engine, workspace)
    }

    /// The paths to lint: as given, or in a pre-commit run the commit's (the workspace set to read the index).
    private static func preCommitPaths(
        _ options: Options, workspace: inout Workspace, environment: CommandEnvironment
    ) throws -> [String] {
        guard options.preCommit else { return options.paths }
        let selection: PreCommitPaths.Selection
        do {
            selection =
                try options.staged
                ?? PreCommitPaths.select(
                    given: options.paths, workingDirectory: environment.workingDirectory,
                    repositories: workspace.history.repositories)
        } catch {
            throw Stop.usage("\(error)")
        }
        // A part of a split run lints its own bundles, from the commit's selection made once.
        var paths = options.isPart ? options.paths : selection.paths
        workspace.stagedIn = selection.repository
        workspace.deletedBundles = selection.deletedBundles
        workspace.stagedListing = (selection.indexListing, selection.listedBundles)
        workspace.stagedSwiftFiles = options.isPart ? [] : selection.swiftFiles
        if selection.changesSettings { workspace.gateRevision = "HEAD" }
        // A bundle deleted whole leaves nothing to lint but its lock entry: judged from the lock's folder.
        if !options.isPart, !selection.deletedBundles.isEmpty, workspace.history.lock != nil {
            paths.append(workspace.history.lockDirectory)
        }
        // A commit that touches no model, configuration, lock file or Swift file: done, without searching anything.
        if paths.isEmpty && workspace.stagedSwiftFiles.isEmpty { throw Stop.nothingToSay }
        return paths
    }

    /// Reads the app and runs the engine; with `--only-new`, REF's run beside it, which needs only what was read
    /// and takes what the work tree's run judged of the versions both share.
    private static func judge(_ options: Options, paths: [String], engine: Engine, workspace: Workspace) throws -> (
        LintInput, LintReport, Result<Workspace.FindingsAtRef, any Error>?
    ) {
        var engine = engine
        do {
            let input = try workspace.read(paths: paths)
            var pendingAtRef: Pending<Result<Workspace.FindingsAtRef, any Error>>?
            if options.onlyNew, let ref = options.against {
                let exchange = JudgementExchange()
                var engineAtRef = engine
                engineAtRef.judgements = .taking(exchange)
                engine.judgements = .offering(exchange)
                pendingAtRef = Pending { [workspace, input, engineAtRef] in
                    Result { try workspace.findings(at: ref, input: input, engine: engineAtRef) }
                }
            }
            let report = engine.run(.app(input))
            let findingsAtRef = pendingAtRef?.value
            Teardown.keep(input)
            return (input, report, findingsAtRef)
        } catch let error as ConfigurationError {
            throw Stop.usage("configuration error: \(error)")
        } catch let error
            where error is BundleFinder.FinderError || error is GitRepository.GitError
            || error is Workspace.UnreadableStore || error is DirectoryWalker.Exhausted
        {
            throw Stop.usage("\(error)")
        } catch {
            throw Stop(
                output: CommandOutput(
                    exitCode: CommandOutput.internalError,
                    standardError:
                        "modellint: internal error: \(error)\nThis is a bug in modellint; please file it with the command you ran.\n"
                ))
        }
    }

    /// A mistyped path must not pass CI: nothing to lint is an error, but in a pre-commit run (a commit that touches
    /// no model, or deletes one whose lock entry was judged; or whose Swift files declare no SwiftData schema).
    private static func requireSomethingFound(_ input: LintInput, options: Options, paths: [String]) throws {
        guard input.bundles.isEmpty else { return }
        if options.preCommit {
            if paths.isEmpty { throw Stop.nothingToSay }
            return
        }
        let place =
            options.paths.isEmpty
            ? "the current directory" : options.paths.map(ReportText.escaped).joined(separator: ", ")
        let skipped =
            input.tooLargeSwiftFiles.isEmpty
            ? ""
            : " (not read for SwiftData schemas, over \(SwiftDataLoader.sizeLimit >> 20) MB: \(ReportText.list(input.tooLargeSwiftFiles.prefix(5).map(ReportText.escaped))))"
        // A bundle whose folder name is not valid UTF-8 is found but cannot be opened by name: say which.
        let unnamed = input.unreadablePaths.filter { $0.hasSuffix(".xcdatamodeld") }
        let unreadable =
            unnamed.isEmpty
            ? ""
            : "; found \(ReportText.list(unnamed.prefix(5).map(ReportText.escaped))), whose name is not valid UTF-8 (rename the folder: modellint reads bundles by their names)"
        throw Stop.usage("no .xcdatamodeld bundles or SwiftData schemas found in \(place)\(skipped)\(unreadable)")
    }

    /// The baseline, applied to every finding before `--only-new` (entries it would remove next still match: no
    /// false "matched no finding" note). Entries that matched nothing are said, never silent: a baseline recorded
    /// with other paths hides nothing, and the build fails.
    private static func applyBaseline(
        to report: inout LintReport, notices: inout [String], options: Options, configuration: Configuration,
        workspace: Workspace, environment: CommandEnvironment
    ) throws {
        guard options.writeBaseline == nil,
            let absolute = options.baseline.map({ PathTools.absolute($0, relativeTo: environment.workingDirectory) })
                ?? configuration.baseline
        else { return }
        let paths = Baseline.Paths(
            baselineFile: absolute,
            repositoryRoot: try? workspace.history.repositories.repository(
                containing: (absolute as NSString).deletingLastPathComponent
            ).toplevel,
            workingDirectory: environment.workingDirectory)
        do {
            let accepted = try baseline(at: absolute)
            let filtered = accepted.filter(report, paths: paths)
            report = filtered.report
            guard !filtered.unmatched.isEmpty else { return }
            let named = try baseline(at: absolute, naming: filtered.unmatched).named
            let count = filtered.unmatched.values.reduce(0, +)
            let shown = PathTools.display(absolute, relativeTo: environment.workingDirectory)
            notices.append(
                "note: \(count) of \(accepted.count) entr\(accepted.count == 1 ? "y" : "ies") in \(ReportText.escaped(shown)) matched no finding (fixed since, or recorded for other files): \(named.map(ReportText.escaped).joined(separator: "; "))\(count > named.count ? "; …" : "")"
            )
        } catch {
            throw Stop.usage("\(error)")
        }
    }

    /// `--write-baseline`: every finding of the report, recorded; the run ends there (exit 0).
    private static func writeBaseline(
        _ report: LintReport, to path: String, repositories: RepositoryCache, _ environment: CommandEnvironment
    ) -> Prepared {
        let absolute = PathTools.absolute(path, relativeTo: environment.workingDirectory)
        let baseline = Baseline(
            report: report,
            paths: Baseline.Paths(
                baselineFile: absolute,
                repositoryRoot: try? repositories.repository(
                    containing: (absolute as NSString).deletingLastPathComponent
                ).toplevel,
                workingDirectory: environment.workingDirectory))
        do {
            try FileWriter.withLock(on: absolute) {
                try FileWriter.write(
                    Data(baseline.serialized().utf8), to: absolute,
                    confinedTo: .named(absolute, workingDirectory: environment.workingDirectory))
            }
        } catch {
            return .failure(.usageError("\(error)"))
        }
        return .failure(
            CommandOutput(
                exitCode: 0,
                standardOutput:
                    "\(path): recorded \(baseline.entries.count) finding\(baseline.entries.count == 1 ? "" : "s")\n"))
    }

    /// `--only` and `--disable`, on top of the configuration: unknown ids are usage errors with a suggestion.
    /// `--only` keeps the rule's configured severity (or its default) and turns every other rule off.
    package static func selectRules(only: [String], disabled: [String], into configuration: inout Configuration) throws
    {
        for id in only + disabled where !RuleRegistry.ids.contains(id) {
            var message = "unknown rule id '\(id)'"
            if let suggestion = Spelling.closest(to: id, in: RuleRegistry.descriptions.map(\.id)) {
                message += " (did you mean '\(suggestion)'?)"
            }
            throw UsageError(message + "; modellint rules lists them")
        }
        if !only.isEmpty {
            // skip-version-upgrade stays on: its findings about an --only rule are that rule's (see `onlyFilter`).
            for id in RuleRegistry.ids where !only.contains(id) && id != SkipVersionUpgradeRule.description.id {
                configuration.rules[id] = .off
            }
        }
        for id in disabled { configuration.rules[id] = .off }
    }

    /// What one plain run judged: the input it read, the engine it ran and its report (`fix` repairs from it).
    package struct Judged {
        package var input: LintInput
        package var engine: Engine
        package var report: LintReport
    }

    /// A run as `check` makes it with `options`' paths, configuration, lock and revisions, without the run cache, a
    /// baseline or `--only-new`: every finding. It stops (`Stop`) where `check` would.
    package static func judge(_ options: Options, environment: CommandEnvironment) throws -> Judged {
        let (_, engine, workspace) = try setUp(options, environment: environment)
        let (input, report, _) = try judge(options, paths: options.paths, engine: engine, workspace: workspace)
        try requireSomethingFound(input, options: options, paths: options.paths)
        return Judged(input: input, engine: engine, report: report)
    }

    /// With `--only`: the findings of those rules, and the skip-version findings whose underlying rule is one.
    package static func onlyFilter(_ report: LintReport, only: [String]) -> LintReport {
        guard !only.isEmpty else { return report }
        var filtered = report
        filtered.diagnostics = report.diagnostics.filter {
            only.contains($0.ruleId) || $0.underlyingRuleId.map(only.contains) == true
        }
        return filtered
    }

    /// The lock file (explicit, or the default one when it exists) and the git revisions to compare with.
    package static func historyOptions(
        _ given: Options, configuration: Configuration, environment: CommandEnvironment
    ) throws -> HistoryOptions {
        var options = given.repositories.map { HistoryOptions(repositories: $0) } ?? HistoryOptions()
        options.against = given.against
        options.released = given.released
        for case let revision? in [options.against, options.released] where revision.hasPrefix("-") {
            throw UsageError("revision '\(revision)' starts with '-': refused (a revision is never an option)")
        }
        if given.noLock {
            guard given.lock == nil else { throw UsageError("--lock and --no-lock contradict each other: give one") }
            return options
        }
        let explicit = given.lock
        let path =
            explicit.map { PathTools.absolute($0, relativeTo: environment.workingDirectory) }
            ?? LockCommand.defaultLockPath(configuration: configuration, environment: environment)
        if FileReader.kind(at: path) != nil {
            options.lock = try LockFile.load(path: path)
            options.lockPath = PathTools.display(path, relativeTo: environment.workingDirectory)
            options.lockDirectory = (path as NSString).deletingLastPathComponent
        } else if let explicit {
            throw UsageError("lock file \(explicit): no such file (create it with modellint lock)")
        }
        return options
    }

    package static func loadConfiguration(_ explicit: String?, environment: CommandEnvironment) throws -> Configuration
    {
        let path: String?
        if let explicit {
            path = PathTools.absolute(explicit, relativeTo: environment.workingDirectory)
            guard FileReader.kind(at: path!) != nil else {
                throw ConfigurationError(file: explicit, keyPath: nil, message: "no such file")
            }
        } else {
            path = Configuration.find(from: environment.workingDirectory)
        }
        guard let path else { return Configuration(baseDirectory: environment.workingDirectory) }
        return try Configuration.load(path: path, knownRuleIDs: RuleRegistry.ids)
    }

    /// A baseline that cannot be used is the user's input in error (exit 2), like a bad option.
    static func baseline(at path: String, naming: [Digest128: Int] = [:]) throws -> Baseline {
        do { return try Baseline.load(path: path, naming: naming) } catch let error as Baseline.LoadError {
            throw UsageError(error.description)
        }
    }
}

private extension Array where Element == String {
    /// `["a", "b"]` -> ("a", "b"); a missing second part is "".
    var splitPair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
