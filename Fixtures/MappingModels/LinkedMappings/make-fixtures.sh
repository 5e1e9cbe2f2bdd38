set -e
# Writes the three scenarios of this folder (run from the repository root: bash Fixtures/MappingModels/LinkedMappings/make-fixtures.sh).
# Each mapping model is written by Scripts/make-mapping-model with the entity mappings Xcode would list.
base=Fixtures/MappingModels/LinkedMappings; mkdir -p $base; tmp=$(mktemp -d)
hdr='<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23231" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">'
entity() { # name, then attribute lines "name:Type" (sorted as Xcode writes them)
  local n="$1"; shift; local abstract=""; if [ "$n" = "${n#!}" ]; then :; else n="${n#!}"; abstract=' isAbstract="YES"'; fi
  printf '    <entity name="%s" representedClassName="%s"%s syncable="YES">\n' "$n" "$n" "$abstract"
  for a in "$@"; do local an="${a%%:*}" at="${a#*:}"; local extra="" optional=' optional="YES"'
    case "$at" in *!) at="${at%!}"; optional="";; esac
    case "$at" in "Integer 64"|Boolean) extra=' usesScalarValueType="YES"';; Date) extra=' usesScalarValueType="NO"';; esac
    printf '        <attribute name="%s"%s attributeType="%s"%s/>\n' "$an" "$optional" "$at" "$extra"; done
  printf '    </entity>\n'; }
cur() { printf '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n\t<key>_XCCurrentVersionName</key>\n\t<string>%s.xcdatamodel</string>\n</dict>\n</plist>\n' "$1"; }
model() { printf '%s\n%s</model>\n' "$hdr" "$1"; }
mk() { mkdir -p "$1/$2.xcdatamodel"; model "$3" > "$1/$2.xcdatamodel/contents"; }
mm() { python3 Scripts/make-mapping-model "$@" > /dev/null; }

# Entities added after the mapping model was made (Tag, and an abstract Record), and an entity no linked mapping
# names changed in place (Folder, whose mapping is a leftover the compiler drops): Core Data still picks it.
s=$base/EntityAddedLater; b=$s/Notes.xcdatamodeld; mkdir -p $b
mk $b "Notes 1" "$(entity Folder name:String)
$(entity Note title:String)
"
mk $b "Notes 2" "$(entity Folder color:String name:String)
$(entity Note body:String title:String)
$(entity '!Record' created:Date)
$(entity Tag label:String)
"
cur "Notes 2" > $b/.xccurrentversion
model "$(entity Folder name:String)
$(entity Note title:String)
" > $tmp/s1
model "$(entity Folder name:String)
$(entity Note body:String title:String)
" > $tmp/d1
mm $s/Migrations/Notes1ToNotes2.xcmappingmodel --source-path "Notes.xcdatamodeld/Notes 1.xcdatamodel" --source-contents $tmp/s1 --destination-path "Notes.xcdatamodeld/Notes 2.xcdatamodel" --destination-contents $tmp/d1 --entity-mapping Note:Note --leftover-mapping Folder:Folder

# A mapped entity changed in place after the mapping model was made (Memo.pinned added): never picked.
s=$base/MappedEntityChanged; b=$s/Memos.xcdatamodeld; mkdir -p $b
mk $b "Memos 1" "$(entity Box name:String)
$(entity Memo title:String)
"
mk $b "Memos 2" "$(entity Box name:String)
$(entity Memo body:String pinned:Boolean title:String)
"
cur "Memos 2" > $b/.xccurrentversion
model "$(entity Box name:String)
$(entity Memo title:String)
" > $tmp/s2
model "$(entity Box name:String)
$(entity Memo body:String title:String)
" > $tmp/d2
mm $s/Migrations/Memos1ToMemos2.xcmappingmodel --source-path "Memos.xcdatamodeld/Memos 1.xcdatamodel" --source-contents $tmp/s2 --destination-path "Memos.xcdatamodeld/Memos 2.xcdatamodel" --destination-contents $tmp/d2 --entity-mapping Memo:Memo --entity-mapping Box:Box

# The mapping model for Cards 2 -> Cards 3 maps Card and Deck, unchanged from Cards 1 to Cards 2 (only Review changed,
# which Cards 3 removes and no mapping names), so Core Data also picks it for a store of Cards 1 that skipped Cards 2:
# the direct Cards 1 -> Cards 3 pair is covered, and its required Card.front is the mapping model's to fill.
s=$base/CoversSkippedVersion; b=$s/Cards.xcdatamodeld; mkdir -p $b
mk $b "Cards 1" "$(entity Card title:String)
$(entity Deck name:String)
$(entity Review score:String)
"
mk $b "Cards 2" "$(entity Card title:String)
$(entity Deck name:String)
$(entity Review comment:String score:String)
"
mk $b "Cards 3" "$(entity Card front:String! title:String)
$(entity Deck name:String)
"
cur "Cards 3" > $b/.xccurrentversion
model "$(entity Card title:String)
$(entity Deck name:String)
$(entity Review comment:String score:String)
" > $tmp/s3
model "$(entity Card front:String! title:String)
$(entity Deck name:String)
" > $tmp/d3
mm $s/Migrations/Cards2ToCards3.xcmappingmodel --source-path "Cards.xcdatamodeld/Cards 2.xcdatamodel" --source-contents $tmp/s3 --destination-path "Cards.xcdatamodeld/Cards 3.xcdatamodel" --destination-contents $tmp/d3 --entity-mapping Card:Card --entity-mapping Deck:Deck
