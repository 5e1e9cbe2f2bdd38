# Homebrew formula, kept in this repository (a tap named by URL, since the repository is not called homebrew-…):
#   brew tap modellint/modellint https://github.com/modellint/modellint
#   brew install modellint
# Built from source with the product alone (the tests and plugins are not built), in release mode.
class Modellint < Formula
  desc "Lint Core Data model bundles (.xcdatamodeld) before a model change ships"
  homepage "https://github.com/modellint/modellint"
  url "https://github.com/modellint/modellint.git", tag: "0.1.0"
  head "https://github.com/modellint/modellint.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on macos: :ventura

  uses_from_macos "swift" => :build

  def install
    # --disable-sandbox: Homebrew already builds inside its own sandbox, and SwiftPM's cannot nest in it.
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "modellint"
    bin.install ".build/release/modellint"
  end

  test do
    assert_match "modellint #{version}", shell_output("#{bin}/modellint --version")
    bundle = testpath/"Model.xcdatamodeld/Model.xcdatamodel"
    bundle.mkpath
    (bundle/"contents").write <<~XML
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="22000" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
          <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class">
              <attribute name="title" optional="YES" attributeType="String"/>
          </entity>
      </model>
    XML
    assert_match "0 errors", shell_output("#{bin}/modellint check #{testpath}/Model.xcdatamodeld")
  end
end
