import Foundation
import XCTest
import ModelLintModel

/// A `VersionRef` keeps its model in a box (one reference counted per copy, not one per array of the model): it is
/// still a value, so a copy whose model is changed leaves the original's as it was.
final class VersionRefTests: XCTestCase {
    func testACopysModelChangesAlone() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item"/>
                <entity name="Tag" representedClassName="Tag"/>
            </model>
            """
        guard case .model(let model) = ContentsParser.parse(data: Data(xml.utf8), path: "Near 1/contents") else {
            return XCTFail("the model does not parse")
        }
        let original = VersionRef(name: "Near 1", contentsPath: "Near 1/contents", model: model)
        var copy = original
        copy.model.entities.removeLast()
        copy.name = "Near 2"
        XCTAssertEqual(original.model.entities.map(\.name), ["Item", "Tag"])
        XCTAssertEqual(copy.model.entities.map(\.name), ["Item"])
        XCTAssertEqual([original.name, copy.name], ["Near 1", "Near 2"])
        copy.model = model
        XCTAssertEqual(copy.model.entities.map(\.name), ["Item", "Tag"])
    }
}
