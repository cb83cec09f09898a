#!/bin/sh
# Build the reference GGP toolkit ggp-base (github ggp-org/ggp-base, commit 44db132, BSD)
# offline from its bare git mirror, with the machine's JDK 17, into $DEST:
#   $DEST/src      the source tree (without lib/Jython/jython.jar, absent from the mirror)
#   $DEST/classes  compiled classes + resources
# and compile the benchmark's own Java driver (benchmarks/ggp_reference/*.java) into
#   $DEST/driver.  The classpath to use is printed at the end and written to $DEST/classpath.txt.
# Usage: benchmarks/ggp_reference/build.sh [MIRROR] [DEST]
set -eu
MIRROR=${1:-/work/.mirror/ggp-org+ggp-base/repo}
DEST=${2:-/work/tools/ggp-base}
HERE=$(cd "$(dirname "$0")" && pwd)

rm -rf "$DEST/src" "$DEST/classes" "$DEST/driver"
mkdir -p "$DEST/src" "$DEST/classes" "$DEST/driver"
# The mirror lacks the Jython jar's blob: list every other file and archive only those (git still
# prints "invalid object ... jython.jar" while walking the tree; it exits 0 and the rest is complete).
git -C "$MIRROR" ls-tree -r HEAD --name-only | grep -v '^lib/Jython/jython.jar$' > "$DEST/files.txt"
git -C "$MIRROR" archive HEAD $(cat "$DEST/files.txt") | tar -x -C "$DEST/src"
rm "$DEST/files.txt"

cd "$DEST/src"
# The Python gamers and console need Jython: leave them out.
rm -rf src/main/java/org/ggp/base/player/gamer/python src/main/java/org/ggp/base/apps/consoles/PythonConsole.java
# JDK 17 finds JTable(Vector, Vector) ambiguous for Vector<?> arguments: cast to the raw type.
python3 - <<'PY'
import re
p = "src/main/java/org/ggp/base/util/ui/table/JZebraTable.java"
s = open(p).read()
head, sep, tail = s.partition("public JZebraTable(java.util.Vector<?> rowData, java.util.Vector<?> columnNames)")
assert sep, "JZebraTable constructor not found"
tail = tail.replace("super(rowData, columnNames);",
                    "super((java.util.Vector) rowData, (java.util.Vector) columnNames);", 1)
open(p, "w").write(head + sep + tail)
PY

CP=$(find "$DEST/src/lib" -name '*.jar' | sort | tr '\n' ':')
find src/main/java -name '*.java' > "$DEST/sources.txt"
javac -nowarn -encoding UTF-8 -d "$DEST/classes" -cp "$CP" @"$DEST/sources.txt" 2>&1 | grep -v '^Note:' || true
rm "$DEST/sources.txt"
test -f "$DEST/classes/org/ggp/base/server/GameServer.class"
cp -r src/main/resources/* "$DEST/classes/"

CLASSPATH_ALL="$DEST/classes:$DEST/driver:$CP"
if ls "$HERE"/*.java >/dev/null 2>&1; then
    javac -nowarn -encoding UTF-8 -d "$DEST/driver" -cp "$CLASSPATH_ALL" "$HERE"/*.java
fi
printf '%s\n' "$CLASSPATH_ALL" > "$DEST/classpath.txt"
echo "built ggp-base into $DEST"
echo "classpath: $CLASSPATH_ALL"
