import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintRules

// What the tests make of a rule's examples: its bundle written to disk, its build, its store, its shipped record.
// The examples themselves are data the product ships (`modellint explain` prints them); materialising them is the
// harness's, so it lives here, in a target only the tests depend on.
extension RuleExample {
    /// The build of a `.compiled` example as `verify-build` would read it from `Near.momd` beside the bundle: each
    /// version's body parsed as if compiled, Xcode's hashes those of the body.
    package func compiledModel() -> CompiledModel? {
        guard let build else { return nil }
        func model(_ body: String, _ path: String) -> Model? {
            if case .model(let m) = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8), path: path)
            {
                return m
            }
            return nil
        }
        let versions = build.versions.map { version -> CompiledVersion in
            let path = "Near.momd/\(version.name).mom"
            let m = model(version.body, path)
            return CompiledVersion(name: version.name, path: path, model: m, recordedHashes: m?.versionHashes.entities)
        }
        let mappings = build.mappings.map { mapping -> CompiledMapping in
            let source = model(mapping.source, "source")?.versionHashes.entities ?? [:]
            let destination = model(mapping.destination, "destination")?.versionHashes.entities ?? [:]
            let entityMappings = destination.keys.sorted().map { name in
                CompiledMapping.EntityMapping(
                    name: "\(name)To\(name)", source: source[name].map { (name, $0) },
                    destination: (name, destination[name]!))
            }
            return CompiledMapping(name: mapping.name, path: "\(mapping.name).cdm", entityMappings: entityMappings)
        }
        return CompiledModel(path: "Near.momd", currentVersion: build.current, versions: versions, mappings: mappings)
    }

    /// The metadata of a `.store` example's store, as StoreMetadata reads it from Z_METADATA.
    package func storeMetadata() -> StoreMetadata? {
        guard let store else { return nil }
        guard
            case .model(let m) = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + store.body + "\n</model>\n").utf8), path: "Store.sqlite")
        else { return nil }
        return StoreMetadata(
            entityHashes: m.versionHashes.entities, versionIdentifiers: [], frameworkVersion: nil, storeType: "SQLite",
            uuid: nil, checksum: nil, usedWAL: false, cachedModel: storeCachesItsModel ? m : nil)
    }

    /// The shipped record this example describes, parsed as the lock or git reader would.
    package func shippedHistory() -> ShippedHistory? {
        guard !shipped.isEmpty else { return nil }
        let versions: [ShippedHistory.Version] = shipped.compactMap { name, contents in
            guard let text = RuleExample.markedText(of: contents)?.filter({ $0 != RuleExample.marker }),
                case .model(let model) = ContentsParser.parse(data: Data(text.utf8), path: "shipped/\(name)")
            else { return nil }
            let fromGit: Bool
            if case .lockFile = shippedSource { fromGit = false } else { fromGit = true }
            return ShippedHistory.Version(name: name, digest: VersionDigest(model: model), model: fromGit ? model : nil)
        }
        return ShippedHistory(source: shippedSource, versions: versions)
    }

    /// Writes a SwiftData example's files into `directory/App`; returns where each marker pointed (`../App/…`,
    /// line, byte column).
    package func writeSwiftFiles(into directory: URL) throws -> [(file: String, line: Int, column: Int)] {
        let folder = directory.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var markers: [(String, Int, Int)] = []
        for (name, text) in swiftFiles {
            var clean = ""
            var line = 1
            var column = 1
            for ch in text {
                if ch == RuleExample.marker {
                    markers.append(("../App/" + name, line, column))
                    continue
                }
                clean.append(ch)
                if ch == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += ch.utf8.count
                }
            }
            // A name with folders (`Model.xcdatamodeld/Model.xcdatamodel/contents`) writes them too.
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(clean.utf8).write(to: file)
        }
        return markers
    }

    /// Writes the bundle `Near.xcdatamodeld` into `directory`; returns it and where each marker pointed
    /// (bundle-relative file, line, column).
    package func write(into directory: URL) throws -> (bundle: URL, markers: [(file: String, line: Int, column: Int)]) {
        let fm = FileManager.default
        let bundle = directory.appendingPathComponent("Near.xcdatamodeld")
        try fm.createDirectory(at: bundle, withIntermediateDirectories: true)
        var markers: [(String, Int, Int)] = []
        for (name, contents) in versions {
            let folder = bundle.appendingPathComponent(name + ".xcdatamodel")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            switch contents {
            case .none: break
            case .legacy:
                try Data("bplist00".utf8).write(to: folder.appendingPathComponent("elements"))
                try Data("bplist00".utf8).write(to: folder.appendingPathComponent("layout"))
            case .model, .file:
                let marked = RuleExample.markedText(of: contents)!
                var clean = ""
                var line = 1
                var column = 1
                for ch in marked {
                    if ch == RuleExample.marker {
                        markers.append((name + ".xcdatamodel/contents", line, column))
                        continue
                    }
                    clean.append(ch)
                    if ch == "\n" {
                        line += 1
                        column = 1
                    } else {
                        column += ch.utf8.count
                    }
                }
                try Data(clean.utf8).write(to: folder.appendingPathComponent("contents"))
            }
        }
        for mapping in mappingModels {
            let folder = directory.appendingPathComponent("\(mapping.name).xcmappingmodel")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            // The entity mappings it lists, as Xcode's editor writes them (names are identifiers: no escaping).
            let linked = mapping.linked ?? []
            let ids = linked.indices.map { "z\(200 + $0)" }
            let list =
                mapping.linked == nil
                ? ""
                : "<relationship name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"\(ids.joined(separator: " "))\"></relationship>"
            let objects = zip(ids, linked).map { id, entity in
                "<object type=\"XDDEVENTITYMAPPING\" id=\"\(id)\">"
                    + (entity.source.map { "<attribute name=\"sourcename\" type=\"string\">\($0)</attribute>" } ?? "")
                    + (entity.destination.map {
                        "<attribute name=\"destinationname\" type=\"string\">\($0)</attribute>"
                    } ?? "") + "</object>"
            }.joined()
            let xml = """
                <?xml version="1.0" standalone="yes"?>
                <database><object type="XDDEVMAPPINGMODEL" id="z102">\
                <attribute name="sourcemodelpath" type="string">Near.xcdatamodeld/\(mapping.source).xcdatamodel</attribute>\
                <attribute name="destinationmodelpath" type="string">Near.xcdatamodeld/\(mapping.destination).xcdatamodel</attribute>\
                \(list)</object>\(objects)</database>

                """
            try Data(xml.utf8).write(to: folder.appendingPathComponent("xcmapping.xml"))
        }
        if let lockFileText {
            var clean = ""
            var line = 1
            for ch in lockFileText {
                if ch == RuleExample.marker {
                    markers.append(("../modellint.lock", line, 0))
                    continue
                }
                clean.append(ch)
                if ch == "\n" { line += 1 }
            }
            try Data(clean.utf8).write(to: directory.appendingPathComponent("modellint.lock"))
        }
        let pointer: String?
        switch currentVersion {
        case .absent: pointer = nil
        case .last: pointer = versions.last.map { RuleExample.currentVersionPlist(naming: $0.name) }
        case .named(let name): pointer = RuleExample.currentVersionPlist(naming: name)
        case .file(let text): pointer = text
        }
        if let pointer {
            try Data(pointer.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return (bundle, markers)
    }

    package static func currentVersionPlist(naming name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name).xcdatamodel</string>
        </dict>
        </plist>

        """
    }
}
