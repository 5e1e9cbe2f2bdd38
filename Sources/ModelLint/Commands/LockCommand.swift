import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintSwiftData
import ModelLintHistory
import ModelLintEngine
import ModelLintGather

/// `modellint lock [PATH ...]`: record the versions that ship, with their digests, in `modellint.lock`.
package enum LockCommand {
    static let lock = ValueOption<String>(
        "--lock", value: "FILE", help: "lock file to write (default: modellint.lock next to the configuration, or here)"
    )
    static let config = configOption("configuration file (for versionOrder and exclude)")
    static let force = Flag("--force", help: "re-record versions already in the lock file with their current digests")
    static let verbose = Flag("--verbose", help: "list every version added or re-locked (by default only the counts)")

    package static let options = [lock.spec, config.spec, force.spec, verbose.spec, helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage: "modellint lock [PATH ...] [--lock FILE] [--force] [--verbose]",
        summary: """
            Record every readable version of the selected bundles in the lock file, as shipped: run it when you cut a
            release, and commit the file. Versions already locked keep their digests (unless --force), so the lock is
            only ever extended; check then reports a locked version that was edited or deleted.
            """,
        options: options)

    package static func defaultLockPath(configuration: Configuration, environment: CommandEnvironment) -> String {
        let directory =
            configuration.filePath.map {
                (PathTools.absolute($0, relativeTo: environment.workingDirectory) as NSString).deletingLastPathComponent
            }
            ?? environment.workingDirectory
        return directory + "/" + LockFile.fileName
    }

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "lock")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        let configuration: Configuration
        do {
            configuration = try CheckCommand.loadConfiguration(parsed[config], environment: environment)
        } catch {
            return .usageError("configuration error: \(error)")
        }
        let path =
            parsed[lock].map { PathTools.absolute($0, relativeTo: environment.workingDirectory) }
            ?? defaultLockPath(configuration: configuration, environment: environment)
        let display = PathTools.display(path, relativeTo: environment.workingDirectory)
        let selections: [BundleFinder.Selection]
        let swiftSets: [SwiftSchemaSet]
        do {
            let found = try BundleFinder(
                workingDirectory: environment.workingDirectory, exclude: configuration.exclude,
                excludeBase: configuration.baseDirectory, walker: DirectoryWalker(budget: configuration.walkBudget)
            )
            .selections(for: parsed.positionals)
            selections = found.bundles
            swiftSets = found.swiftFiles.flatMap { root, files in
                SwiftDataLoader.load(files, root: root) {
                    PathTools.display($0, relativeTo: environment.workingDirectory)
                }.sets.filter { !$0.isUnversioned }
            }
        } catch {
            return .usageError("\(error)")
        }
        guard !selections.isEmpty || !swiftSets.isEmpty else {
            return .usageError("no .xcdatamodeld bundles or SwiftData schemas found; nothing to lock")
        }
        let swiftData = swiftSets.map { set in
            (set: set, absolutePath: PathTools.absolute(set.path, relativeTo: environment.workingDirectory))
        }
        let force = parsed[Self.force]
        // Read, extend and write under one advisory lock: parallel `lock` runs take turns, and none loses another's records.
        return FileWriter.withLock(on: path) {
            update(
                path: path, display: display, selections: selections, swiftData: swiftData,
                configuration: configuration, force: force, verbose: parsed[Self.verbose],
                confinement: .named(path, workingDirectory: environment.workingDirectory))
        }
    }

    private static func update(
        path: String, display: String, selections: [BundleFinder.Selection],
        swiftData: [(set: SwiftSchemaSet, absolutePath: String)], configuration: Configuration, force: Bool,
        verbose: Bool, confinement: FileWriter.Confinement
    ) -> CommandOutput {
        var update = LockUpdate(
            path: path, display: display, configuration: configuration, force: force, verbose: verbose)
        do {
            try update.readExisting()
            try update.upgradeFormatOne()
            update.record(update.items(selections: selections, swiftData: swiftData))
            update.dropUnupgraded()
            try update.lock.write(to: path, confinedTo: confinement)
        } catch let error as UsageError {
            return .usageError(error.message)
        } catch {
            return .usageError("\(error)")
        }
        return CommandOutput(exitCode: 0, standardOutput: update.output)
    }
}

/// One `lock` run: the lock file read (or begun), the bundles' versions recorded in it, and what was done.
private struct LockUpdate {
    let path: String
    let display: String
    let configuration: Configuration
    let force: Bool
    let lockDirectory: String
    var lock = LockFile()
    let verbose: Bool
    /// What was done, in order: a version not locked or dropped, or a file repaired, is always printed; a version
    /// added or re-locked only with `--verbose`.
    var lines: [(text: String, verboseOnly: Bool)] = []
    var added = 0
    var kept = 0
    var relocked = 0
    var upgraded = 0

    init(path: String, display: String, configuration: Configuration, force: Bool, verbose: Bool) {
        self.path = path
        self.display = display
        self.configuration = configuration
        self.force = force
        self.verbose = verbose
        lockDirectory = (path as NSString).deletingLastPathComponent
    }

    /// The lock file as it is; `--force` repairs what it is asked to repair: an unreadable file is rebuilt.
    mutating func readExisting() throws {
        guard FileReader.kind(at: path) != nil else { return }
        do {
            lock = try LockFile.load(path: path)
        } catch {
            guard force else { throw UsageError("\(error)") }
            say(
                "  repaired: \(display) could not be read (\((error as? LockFile.LockError)?.message ?? "\(error)")); rewritten from the bundles\n"
            )
        }
    }

    func load(_ absolutePath: String, display: String) -> ModelBundle {
        BundleLoader.load(
            bundleURL: URL(fileURLWithPath: absolutePath), displayPath: display,
            versionOrder: configuration.settings(forBundleAt: absolutePath)?.versionOrder)
    }

    /// A format-1 file becomes format 2 only when every version it records still matches its format-1 digests: an
    /// edit made since it was written must not be blessed by the upgrade.
    mutating func upgradeFormatOne() throws {
        guard lock.readFormat == 1 else { return }
        var problems: [String] = []
        for key in lock.bundles.keys.sorted(by: { $0.string < $1.string }) {
            let absolute =
                key.string.hasPrefix("/") ? key.string : PathTools.absolute(key.string, relativeTo: lockDirectory)
            let bundle = load(absolute, display: key.string)
            for name in lock.bundles[key]!.keys.sorted(by: { VersionOrder.precedes($0.string, $1.string) }) {
                let record = lock.bundles[key]![name]!
                guard let model = bundle.versions.first(where: { $0.name.isExactly(name.string) })?.model else {
                    problems.append("\(key) \(name) is gone or cannot be read")
                    continue
                }
                let verdict = record.compare(with: model)
                if verdict.schemaChanged || verdict.contentChanged {
                    problems.append(
                        "\(key) \(name) was edited since it was locked (\(verdict.changedEntities.joined(separator: ", ")))"
                    )
                } else {
                    lock.bundles[key]![name] = VersionDigest(model: model)
                    upgraded += 1
                }
            }
        }
        if !problems.isEmpty && !force {
            throw UsageError(
                "\(display) is a format-1 lock file and cannot be upgraded to format 2, because \(problems.count == 1 ? "a version no longer matches what it recorded" : "versions no longer match what they recorded"): \(problems.joined(separator: "; ")). Run modellint check to see each change; modellint lock --force re-records the versions as they are now"
            )
        }
        say(problems.map { "  not verified: \($0); re-recorded as it is now where it exists\n" }.joined())
    }

    /// Bundles, then SwiftData schema sets (keyed by the plan's file and the set's name), with the schemas whose
    /// shape is not wholly known.
    func items(
        selections: [BundleFinder.Selection], swiftData: [(set: SwiftSchemaSet, absolutePath: String)]
    ) -> [(bundle: ModelBundle, key: String, unknown: [String: String])] {
        var items = selections.map { selection in
            (
                bundle: load(selection.absolutePath, display: selection.displayPath),
                key: LockFile.normalizedKey(
                    PathTools.relative(selection.absolutePath, to: lockDirectory) ?? selection.absolutePath),
                unknown: [String: String]()
            )
        }
        for (set, absolutePath) in swiftData {
            var unknown: [String: String] = [:]
            for schema in set.schemas where !schema.isFullyKnown {
                unknown[schema.name] = (schema.unknownEntities.keys.sorted() + schema.unresolvedModels).joined(
                    separator: ", ")
            }
            items.append(
                (
                    set.bundle,
                    LockFile.swiftDataKey(planFile: absolutePath, set: set.name, lockDirectory: lockDirectory),
                    unknown
                ))
        }
        return items
    }

    /// Every readable version's digest: added, kept, or (legacy, or changed under `--force`) re-locked.
    mutating func record(_ items: [(bundle: ModelBundle, key: String, unknown: [String: String])]) {
        for (bundle, keyString, unknown) in items {
            let key = ExactName(keyString)
            var versions = lock.bundles[key] ?? [:]
            for version in bundle.versions {
                guard let model = version.model else {
                    say("  not locked: \(bundle.path) \(version.name) cannot be read (modellint check says why)\n")
                    continue
                }
                // A schema whose shape is not wholly known has no hash to record (nothing is made up).
                if let what = unknown[version.name] {
                    say(
                        "  not locked: \(bundle.path) \(version.name): \(what) could not be read from the source\n")
                    continue
                }
                let digest = VersionDigest(model: model)
                let name = ExactName(version.name)
                if let existing = versions[name] {
                    if existing.isLegacy || (force && existing != digest) {
                        versions[name] = digest
                        relocked += 1
                        list("  re-locked: \(bundle.path) \(version.name)")
                    } else {
                        kept += 1
                    }
                } else {
                    versions[name] = digest
                    added += 1
                    list("  added: \(bundle.path) \(version.name)")
                }
            }
            lock.bundles[key] = versions
        }
    }

    /// Records that could not be upgraded (a forced run): dropped, and said.
    mutating func dropUnupgraded() {
        for key in lock.bundles.keys.sorted(by: { $0.string < $1.string }) {
            for name in lock.bundles[key]!.keys.sorted(by: { $0.string < $1.string })
            where lock.bundles[key]![name]!.isLegacy {
                lock.bundles[key]![name] = nil
                say("  dropped: \(key) \(name) (format 1, and no version to re-record it from)\n")
            }
        }
    }

    /// Always printed, a line each.
    private mutating func say(_ text: String) {
        lines += text.split(separator: "\n").map { (String($0), false) }
    }

    private mutating func list(_ line: String) { lines.append((line, true)) }

    /// What went wrong (and, with `--verbose`, every version recorded), each line log-safe (version folder names
    /// are the user's), then the counts.
    var output: String {
        let summary =
            "\(display): \(added) version\(added == 1 ? "" : "s") added, \(kept) already locked"
            + (force ? ", \(relocked) re-locked" : "")
            + (upgraded > 0 ? ", \(upgraded) upgraded from format 1" : "")
        return lines.filter { verbose || !$0.verboseOnly }.map { ReportText.logLine($0.text) + "\n" }.joined()
            + summary + "\n"
    }
}
