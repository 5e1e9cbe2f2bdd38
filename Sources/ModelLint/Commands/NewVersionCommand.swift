import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintCompiled
import ModelLintProjects
import ModelLintEngine
import ModelLintReporting
import ModelLintRepair
import ModelLintGather

/// `modellint new-version BUNDLE [--name NAME]`: the safe way to change a shipped model — copy the current
/// version, make the copy current, edit the copy.
package enum NewVersionCommand {
    static let name = ValueOption<String>(
        "--name", value: "NAME", help: "the new version's name (default: the next in the bundle's pattern)")

    package static let options = [name.spec, helpFlag.spec]

    package static let help = ArgumentParser.helpText(
        usage: "modellint new-version BUNDLE [--name NAME]",
        summary: """
            Copy the current version to a new one (Near 20 -> Near 21, Model9 -> Model10) and repoint .xccurrentversion
            at it. Refuses a name that exists. Nothing is left half-done: on any failure the bundle is as it was.
            """,
        options: options)

    /// The next name in the pattern of `name`, or nil when the pattern is ambiguous (`v1.10`) or the number
    /// cannot grow (`Near 9223372036854775807`).
    package static func nextName(after name: String) -> String? { VersionOrder.nextName(after: name) }

    /// A name the user gave: the `.xcdatamodel` suffix dropped; nil with why when it cannot name a version folder.
    package static func validatedName(_ raw: String) -> Result<String, UsageError> {
        let name = raw.hasSuffix(".xcdatamodel") ? String(raw.dropLast(".xcdatamodel".count)) : raw
        if name.isEmpty || name.hasPrefix(".") || name.contains("/") {
            return .failure(
                UsageError(
                    "'\(ReportText.escaped(raw))' is not a usable version name (it must not be empty, start with '.' or hold '/')"
                ))
        }
        if name.unicodeScalars.contains(where: { ReportText.isUnsafe($0.value) }) {
            return .failure(
                UsageError(
                    "'\(ReportText.escaped(raw))' is not a usable version name (it holds a control or bidi character)"))
        }
        if name.utf8.count + ".xcdatamodel".utf8.count > 255 {
            return .failure(UsageError("'\(ReportText.shortenedName(raw))' is too long for a folder name"))
        }
        return .success(name)
    }

    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, options: options, command: "new-version")
        } catch {
            return .usageError("\(error)")
        }
        if parsed[helpFlag] { return CommandOutput(exitCode: 0, standardOutput: help) }
        guard parsed.positionals.count == 1 else {
            return .usageError("new-version takes one bundle; see 'modellint new-version --help'")
        }
        let path = PathTools.absolute(parsed.positionals[0], relativeTo: environment.workingDirectory)
        guard path.hasSuffix(".xcdatamodeld"), FileReader.kind(at: path) == .directory else {
            return .usageError("\(parsed.positionals[0]) is not a .xcdatamodeld bundle")
        }
        return FileWriter.withLock(on: path + "/.xccurrentversion") {
            create(
                in: path, display: parsed.positionals[0], requestedName: parsed[name],
                environment: environment)
        }
    }

    private static func create(
        in path: String, display: String, requestedName: String?, environment: CommandEnvironment
    ) -> CommandOutput {
        let bundleURL = URL(fileURLWithPath: path)
        var notes = removeStaleStaging(of: bundleURL).map { "removed \($0), left by an interrupted new-version\n" }
            .joined()
        let bundle = BundleLoader.load(bundleURL: bundleURL, displayPath: display)
        guard let current = bundle.currentVersion else { return .usageError("\(bundle.path) has no versions to copy") }
        let name: String
        switch newName(requested: requestedName, after: current.name) {
        case .success(let valid): name = valid
        case .failure(let error): return .usageError(error.message)
        }
        let destination = bundleURL.appendingPathComponent(name + ".xcdatamodel")
        if let existing = bundle.versions.first(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
            // An earlier run was interrupted after moving the copy in and before repointing: finish it.
            // Only a version after the current one can be an interrupted run's copy: repointing backwards never is.
            if let e = bundle.versions.firstIndex(where: { $0.name.utf8.elementsEqual(existing.name.utf8) }),
                let c = bundle.currentVersionIndex, e > c,
                sameFiles(destination, bundleURL.appendingPathComponent(current.name + ".xcdatamodel"))
            {
                do {
                    try writePointer(naming: name, in: bundleURL)
                } catch {
                    return .usageError(
                        "\(name) is an unfinished copy of \(current.name), and repointing .xccurrentversion failed (\(error)); \(bundle.path) is as it was"
                    )
                }
                notes +=
                    "finished an interrupted new-version: \(bundle.path)/\(name).xcdatamodel was already an unchanged copy of \(current.name); made it the current version.\n"
                return CommandOutput(exitCode: 0, standardOutput: notes)
            }
            return .usageError("\(bundle.path) already has a version named \(name)")
        }
        if bundle.versions.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            return .usageError(
                "\(bundle.path) already has a version whose name differs from \(name) only by case or Unicode normalization; choose another name"
            )
        }
        do {
            try copy(version: current.name, to: name, in: bundleURL, display: bundle.path)
        } catch let failure as Failure {
            return .usageError(failure.message)
        } catch {
            return .usageError("could not add \(name) (\(error)); \(bundle.path) is unchanged")
        }
        let projectNotes = updateProjects(adding: name, bundleAt: bundleURL.path, environment: environment)
        return CommandOutput(
            exitCode: 0,
            standardOutput: notes + """
                created \(bundle.path)/\(name).xcdatamodel, a copy of \(current.name), and made it the current version.
                Make the model change in \(name); until then modellint reports it as redundant-version.

                """ + projectNotes)
    }

    /// The name asked for (validated), else the next in the current version's pattern.
    static func newName(requested: String?, after current: String) -> Result<String, UsageError> {
        if let requested { return validatedName(requested) }
        guard let next = nextName(after: current) else {
            return .failure(UsageError("cannot tell what comes after '\(current)'; give the name with --name"))
        }
        return .success(next)
    }

    /// The Xcode projects that reference the bundle get the new version too (as the model editor would do it);
    /// a generated project (a `project.yml` or `Project.swift` beside it) is left to its generator.
    /// `dryRun`: say what would be updated, write nothing.
    package static func updateProjects(
        adding name: String, bundleAt bundle: String, environment: CommandEnvironment, dryRun: Bool = false
    ) -> String {
        var notes = ""
        var generated = false
        for file in RepositoryFiles().projects(near: bundle) {
            let projectFolder = CompiledModelReader.folder(of: CompiledModelReader.folder(of: file))
            let display = PathTools.display(file, relativeTo: environment.workingDirectory)
            guard let relative = PathTools.relative(bundle, to: projectFolder),
                let project = try? XcodeProject.read(path: file, displayPath: display),
                let group = project.group(forBundleAt: relative)
            else { continue }
            if ["project.yml", "Project.swift"].contains(where: { FileReader.kind(at: projectFolder + "/" + $0) != nil }
            ) {
                generated = true
                notes +=
                    "\(display) is generated: regenerate it (XcodeGen, Tuist), or the build keeps using the old current version.\n"
                continue
            }
            if dryRun {
                notes += "would update \(display): add \(name).xcdatamodel to the version group and make it current.\n"
                continue
            }
            do {
                try FileWriter.withLock(on: file) {
                    let text = String(
                        decoding: try FileReader.read(file, limit: FileReader.Limit.dataFile), as: UTF8.self)
                    try FileWriter.write(
                        Data(try ProjectEditor.addingVersion(name, to: group, in: text).utf8), to: file,
                        confinedTo: .named(file, workingDirectory: environment.workingDirectory))
                }
                notes +=
                    "updated \(display): added \(name).xcdatamodel to the version group and made it the current version.\n"
            } catch {
                notes += "could not update \(display) (\(error)): add \(name).xcdatamodel to the project in Xcode.\n"
            }
        }
        if !dryRun && (notes.isEmpty || !generated && !notes.contains("updated")) {
            notes +=
                "If your project is generated (XcodeGen, Tuist), regenerate it, or the build keeps using the old current version.\n"
        }
        return notes
    }

    package struct Failure: Error {
        var message: String
        package init(message: String) {
            self.message = message
        }
    }

    /// Stage the copy in a sibling folder of the bundle (same file system, never inside the bundle), rename it
    /// into place, then replace the pointer atomically. Any failure removes what this run made.
    package static func copy(version source: String, to name: String, in bundle: URL, display: String) throws {
        try stage(name, in: bundle, display: display, filling: "copy \(source)") { staged in
            try copyRegularFiles(from: bundle.appendingPathComponent(source + ".xcdatamodel"), to: staged)
        }
        let destination = bundle.appendingPathComponent(name + ".xcdatamodel")
        do {
            try writePointer(naming: name, in: bundle)
        } catch {
            if (try? FileManager.default.removeItem(at: destination)) == nil {
                throw Failure(
                    message:
                        "could not repoint .xccurrentversion (\(error)), and \(destination.path) could not be removed: remove it by hand"
                )
            }
            throw Failure(message: "could not repoint .xccurrentversion (\(error)); \(display) is unchanged")
        }
    }

    /// Adds a version holding `contents`, staged beside the bundle and renamed into place; the pointer is left as
    /// it is (the caller repoints it). Any failure removes what this call made.
    package static func add(version name: String, contents: Data, in bundle: URL, display: String) throws {
        guard FileReader.kind(at: bundle.appendingPathComponent(name + ".xcdatamodel").path) == nil else {
            throw Failure(message: "\(display) already has \(name).xcdatamodel; nothing was changed")
        }
        try stage(name, in: bundle, display: display, filling: "write \(name)") { staged in
            try FileWriter.write(
                contents, to: staged.appendingPathComponent("contents").path,
                confinedTo: .named(staged.path, workingDirectory: staged.path, followsLinks: false))
        }
    }

    /// A version folder made in a staging folder beside the bundle by `fill`, then renamed into the bundle; the
    /// staging folder is always removed. `filling` says what `fill` does, for the error.
    private static func stage(
        _ name: String, in bundle: URL, display: String, filling: String, _ fill: (URL) throws -> Void
    ) throws {
        let fm = FileManager.default
        let staging = bundle.deletingLastPathComponent().appendingPathComponent(
            stagingPrefix(of: bundle) + UUID().uuidString)
        let staged = staging.appendingPathComponent(name + ".xcdatamodel")
        Interruption.register(staging.path)
        defer {
            try? fm.removeItem(at: staging)
            Interruption.unregister(staging.path)
        }
        do {
            try fm.createDirectory(at: staged, withIntermediateDirectories: true)
            try fill(staged)
        } catch let failure as Failure {
            throw Failure(message: "could not \(filling) (\(failure.message)); \(display) is unchanged")
        } catch {
            throw Failure(message: "could not \(filling) (\(error)); \(display) is unchanged")
        }
        guard rename(staged.path, bundle.appendingPathComponent(name + ".xcdatamodel").path) == 0 else {
            throw Failure(message: "could not add \(name) (\(POSIXFailure(code: errno))); \(display) is unchanged")
        }
    }

    /// Copies the version folder's regular files (a version is `contents`, or the legacy `elements` and
    /// `layout`); anything else in it (a FIFO, a device, a symlink, a folder) is refused, never followed.
    private static func copyRegularFiles(from source: URL, to destination: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() {
            let from = source.appendingPathComponent(name).path
            var info = stat()
            guard lstat(from, &info) == 0 else { throw POSIXFailure(code: errno) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                let kind: String
                switch FileReader.FileKind(mode: info.st_mode) {
                case .directory: kind = "a directory"
                case .other(let what): kind = (info.st_mode & S_IFMT == S_IFLNK) ? "a symbolic link" : what
                case .regular: kind = "a regular file"
                }
                throw Failure(message: "\(name) in it is \(kind), not a regular file")
            }
            let data = try FileReader.read(from, limit: FileReader.Limit.contents)
            try FileWriter.write(
                data, to: destination.appendingPathComponent(name).path,
                confinedTo: .named(destination.path, workingDirectory: destination.path, followsLinks: false))
        }
    }

    package static func writePointer(naming name: String, in bundle: URL) throws {
        let data = Data(CurrentVersionPointer.bytes(naming: name))
        // A new file renamed over the pointer: a committed `.xccurrentversion` symlink is replaced, never followed.
        try FileWriter.write(
            data, to: bundle.appendingPathComponent(".xccurrentversion").path,
            confinedTo: .named(bundle.path, workingDirectory: bundle.path, followsLinks: false))
    }

    package static func stagingPrefix(of bundle: URL) -> String {
        ".\(bundle.lastPathComponent).modellint-new-version-"
    }

    /// Staging folders an interrupted run left: beside the bundle (this version's) and inside it (earlier
    /// versions staged there). Both are modellint's own and referenced by nothing.
    package static func removeStaleStaging(of bundle: URL) -> [String] {
        let fm = FileManager.default
        var removed: [String] = []
        let parent = bundle.deletingLastPathComponent()
        for name in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix(stagingPrefix(of: bundle)) {
            if (try? fm.removeItem(at: parent.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        for name in (try? fm.contentsOfDirectory(atPath: bundle.path)) ?? [] where name.hasPrefix(".modellint-staging-")
        {
            if (try? fm.removeItem(at: bundle.appendingPathComponent(name))) != nil {
                removed.append(bundle.lastPathComponent + "/" + name)
            }
        }
        return removed.sorted()
    }

    /// Both folders hold the same regular files with the same bytes.
    package static func sameFiles(_ a: URL, _ b: URL) -> Bool {
        let fm = FileManager.default
        guard let x = try? fm.contentsOfDirectory(atPath: a.path).sorted(),
            let y = try? fm.contentsOfDirectory(atPath: b.path).sorted(), x == y
        else { return false }
        return x.allSatisfy { name in
            guard let p = try? FileReader.read(a.appendingPathComponent(name).path, limit: FileReader.Limit.contents),
                let q = try? FileReader.read(b.appendingPathComponent(name).path, limit: FileReader.Limit.contents)
            else { return false }
            return p == q
        }
    }
}
