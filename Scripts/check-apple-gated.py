#!/usr/bin/env python3
"""Every Apple-only block of the library targets is type-checked on Linux, or is a one-line forward.

A block such as `#if canImport(UIKit)`, `canImport(Network)`, `canImport(SwiftUI)`, `canImport(os)` (any framework in
APPLE_MODULES), `os(iOS)`, or the `#else` of a Linux-only condition (`os(Linux)`, `canImport(Glibc)`), is compiled by
no Linux build: a mistake in it (a public declaration over a framework imported without `public`, a renamed call)
ships unseen. This script finds every such block in the library targets (`Sources/` but its executables in
`Sources/Tools`, and `Adapters/*/Sources` but the surface mirrors) and, for each:

- when its condition is `canImport` of frameworks that have a stand-in in Scripts/apple-stubs/ (a small module
  declaring just the Apple API the blocks use, as the surface mirrors stand in for the vendors' SDKs), type-checks
  its target's sources with the stand-ins on the include path, so that the condition is true and the block compiles;
  a second pass plants `#error` in each such block and requires it to fire, so a block that the stand-ins do not in
  fact turn on (a condition `canImport` alone cannot make true, a target that compiles it to nothing) is caught;
- otherwise accepts it only if it is a one-line forward (one statement or import: nothing to get wrong that the
  other branch does not show), and fails with what to do.

Each target is compiled as SwiftPM compiles it (the arguments come from the debug build's plan, .build/debug.yaml),
with `-typecheck`: the modules it imports come from the debug build. Run after `swift build --build-tests`:
    python3 Scripts/check-apple-gated.py              check every block; exit 1 on a failure
    python3 Scripts/check-apple-gated.py --self-test  also check that an unchecked block and a broken one are caught
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(ROOT, "Scripts/apple-stubs")
# Frameworks (and Swift overlays) that exist only on Apple platforms.
APPLE_MODULES = {
    "UIKit", "AppKit", "SwiftUI", "Network", "os", "OSLog", "Combine", "CoreBluetooth", "CoreLocation",
    "ProximityReader", "Darwin", "ObjectiveC", "Security", "CryptoKit", "WatchKit", "UserNotifications",
    "BackgroundTasks", "StoreKit", "PassKit", "SystemConfiguration", "CoreFoundation_Apple", "LocalAuthentication",
    "DeviceCheck", "ExternalAccessory", "AVFoundation", "CoreNFC", "MapKit", "WidgetKit", "ActivityKit",
}
APPLE_OSES = {"iOS", "macOS", "tvOS", "watchOS", "visionOS", "xrOS", "OSX"}
# Conditions true on Linux whose `#else` is therefore Apple's (or another platform's) code.
LINUX_ATOMS = {("canImport", "Glibc"), ("canImport", "Musl"), ("canImport", "FoundationNetworking"),
               ("canImport", "FoundationXML"), ("os", "Linux")}
ATOM = re.compile(r"(!?)\s*(canImport|os)\(\s*(\w+)\s*\)")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def library_sources():
    files = glob.glob(os.path.join(ROOT, "Sources/**/*.swift"), recursive=True) + glob.glob(
        os.path.join(ROOT, "Adapters/*/Sources/**/*.swift"), recursive=True)
    return sorted(path for path in files
                  if "/Sources/Tools/" not in path and "/Sources/Mirror/" not in path)


def stub_modules():
    return {os.path.splitext(os.path.basename(path))[0] for path in glob.glob(os.path.join(STUBS, "*.swift"))}


class Clause:
    """One branch of an `#if` chain: its directive, condition, first line and body."""

    def __init__(self, path, kind, condition, line, previous):
        self.path, self.kind, self.condition, self.line, self.previous = path, kind, condition.strip(), line, previous
        self.body = []  # (line number, text), directives of nested chains included
        self.atoms = [(neg == "!", fn, name) for neg, fn, name in ATOM.findall(self.condition)]

    def label(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.line}: #{self.kind} {self.condition}".rstrip()

    def apple_only(self):
        """Whether no Linux build compiles this branch."""
        positive = [(fn, name) for neg, fn, name in self.atoms if not neg]
        if any((fn == "canImport" and name in APPLE_MODULES) or (fn == "os" and name in APPLE_OSES)
               for fn, name in positive):
            return True
        if self.kind in ("else", "elseif") and not any(atom in LINUX_ATOMS for atom in positive):
            # The rest of a chain whose earlier branch holds on Linux (`#if os(Linux) … #else`), or whose earlier
            # branch is a negated Apple condition (`#if !canImport(UIKit) … #else`).
            for clause in self.previous:
                if any((fn, name) in LINUX_ATOMS for neg, fn, name in clause.atoms if not neg):
                    return True
                if any(neg and ((fn == "canImport" and name in APPLE_MODULES) or (fn == "os" and name in APPLE_OSES))
                       for neg, fn, name in clause.atoms):
                    return True
        return False

    def checkable(self, stubs):
        """Whether the stand-ins turn this branch on: `#if`/`#elseif` of `canImport`s of stubbed frameworks only."""
        if self.kind not in ("if", "elseif") or "||" in self.condition or "!" in self.condition:
            return False
        atoms = [(fn, name) for _, fn, name in self.atoms]
        rest = ATOM.sub("", self.condition).replace("&&", "").replace("(", "").replace(")", "").strip()
        return bool(atoms) and not rest and all(fn == "canImport" and name in stubs for fn, name in atoms)

    def statements(self):
        """The body's code lines (no blanks, comments or nested directives)."""
        lines = []
        for _, text in self.body:
            stripped = text.strip()
            if not stripped or stripped.startswith("//") or DIRECTIVE.match(text):
                continue
            lines.append(stripped)
        return lines


def clauses(path):
    chains, found = [], []
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    for number, text in enumerate(lines, start=1):
        match = DIRECTIVE.match(text)
        if match:
            kind, condition = match.group(1), re.sub(r"//.*$", "", match.group(2))
            # The directive is part of the enclosing branches' bodies.
            for chain in chains:
                chain[-1].body.append((number, text))
            if kind == "if":
                chains.append([Clause(path, kind, condition, number, [])])
                found.append(chains[-1][-1])
            elif kind in ("elseif", "else") and chains:
                chain = chains[-1]
                chain.append(Clause(path, kind, condition, number, list(chain)))
                found.append(chain[-1])
            elif kind == "endif" and chains:
                chains.pop()
            continue
        for chain in chains:
            chain[-1].body.append((number, text))
    return found


def build_plan():
    """Each module's compile arguments, sources and package dependencies from the debug build's plan:
    {module: (args, [source paths], [module names it imports from the build])}."""
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True, cwd=ROOT,
                              check=True).stdout.strip()
    plan_path = os.path.join(os.path.dirname(bin_path), "debug.yaml")
    if not os.path.exists(plan_path):
        plan_path = os.path.join(ROOT, ".build/debug.yaml")
    plan, inputs = {}, {}
    current = None
    with open(plan_path, encoding="utf-8") as file:
        for line in file:
            header = re.match(r'^\s*"C\.(.+?)-[^"]*-debug\.module":', line)
            if header:
                current = header.group(1)
                continue
            listed = re.match(r"^\s*inputs: (\[.*\])\s*$", line)
            if listed and current:
                inputs[current] = [os.path.splitext(os.path.basename(path))[0] for path in json.loads(listed.group(1))
                                   if path.endswith(".swiftmodule")]
            args = re.match(r"^\s*args: (\[.*\])\s*$", line)
            if args and current:
                arguments = json.loads(args.group(1))
                if arguments and arguments[0].endswith("swiftc"):
                    plan[current] = arguments
                current = None
    modules = {}
    for module, arguments in plan.items():
        sources = []
        for argument in arguments:
            if argument.startswith("@") and argument.endswith("/sources") and os.path.exists(argument[1:]):
                with open(argument[1:], encoding="utf-8") as file:
                    sources += [line.strip() for line in file if line.strip()]
        modules[module] = (arguments, sources, inputs.get(module, []))
    return modules


def gated_on_stubs(sources, stubs):
    """Whether any of `sources` has a `canImport` of a stubbed framework (its module differs in the Apple world)."""
    pattern = re.compile(r"canImport\(\s*(" + "|".join(map(re.escape, sorted(stubs))) + r")\s*\)")
    for source in sources:
        try:
            with open(source, encoding="utf-8") as file:
                if pattern.search(file.read()):
                    return True
        except OSError:
            continue
    return False


def apple_world(module, modules, stubs, stubs_dir, overlay, cache, done):
    """Re-emits, with the stand-ins, the package modules `module` imports whose own code is gated on a stubbed
    framework (the surface mirror declares its own `UIViewController` only where UIKit is missing): the checked
    module then sees them as an Apple build would. Returns the failures."""
    failures = []
    for dependency in modules.get(module, ([], [], []))[2]:
        if dependency in done or dependency not in modules:
            continue
        done.add(dependency)
        failures += apple_world(dependency, modules, stubs, stubs_dir, overlay, cache, done)
        arguments, sources, _ = modules[dependency]
        if not gated_on_stubs(sources, stubs):
            continue
        command = typecheck_command(arguments, sources, stubs_dir, cache, overlay)
        command[1] = "-emit-module"
        command[2:2] = ["-emit-module-path", os.path.join(overlay, f"{dependency}.swiftmodule")]
        result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if result.returncode != 0:
            failures.append(f"FAILED    {dependency} (imported by {module}) with the Apple stand-ins:\n" + "\n".join(
                ["          " + line for line in result.stderr.splitlines() if "error:" in line][:20]))
    return failures


# Arguments of SwiftPM's compile command kept for a type-check (with the value that follows, for the first set).
KEEP_WITH_VALUE = {"-module-name", "-I", "-target", "-swift-version", "-enable-upcoming-feature", "-package-name",
                   "-Xcc", "-Xfrontend", "-sdk", "-F"}
KEEP_ALONE = {"-parse-as-library", "-enable-testing", "-Onone"}


def typecheck_command(arguments, sources, stubs_dir, cache, overlay):
    command = [arguments[0], "-typecheck", "-I", overlay, "-I", stubs_dir, "-module-cache-path", cache]
    index = 1
    while index < len(arguments):
        argument = arguments[index]
        if argument in KEEP_WITH_VALUE and index + 1 < len(arguments):
            command += [argument, arguments[index + 1]]
            index += 2
            continue
        if argument in KEEP_ALONE or argument.startswith("-D"):
            command.append(argument)
        index += 1
    return command + sources


def build_stubs(swiftc, directory):
    for path in sorted(glob.glob(os.path.join(STUBS, "*.swift"))):
        name = os.path.splitext(os.path.basename(path))[0]
        result = subprocess.run([swiftc, "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", name,
                                 "-emit-module-path", os.path.join(directory, f"{name}.swiftmodule"), path],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"the stand-in {os.path.relpath(path, ROOT)} does not compile:\n{result.stderr}")


def check(files, modules, stubs_dir, work, extra_sources=None, quiet=False):
    """Checks the gated blocks of `files`. Returns (failures, checked, forwards)."""
    stubs = stub_modules()
    failures, checked, forwards = [], [], []
    for path in files:
        for clause in clauses(path):
            if not clause.apple_only():
                continue
            if clause.checkable(stubs):
                checked.append(clause)
            elif len(clause.statements()) <= 1:
                forwards.append(clause)
            else:
                missing = sorted({name for _, fn, name in clause.atoms if fn == "canImport" and name not in stubs})
                hint = (f"add a stand-in Scripts/apple-stubs/{missing[0]}.swift declaring the API it uses"
                        if missing else "make its condition `canImport` of stubbed frameworks only")
                failures.append(f"UNCHECKED {clause.label()}: {len(clause.statements())} lines no Linux build "
                                f"compiles; {hint}, or reduce it to a one-line forward")
    # The targets holding the checked blocks' files (a bridge's files are in its shipping target and in the copy
    # compiled against the surface mirror: both are type-checked, at least one must turn each block on).
    by_file = {}
    for clause in checked:
        by_file.setdefault(os.path.realpath(clause.path), []).append(clause)
    targets = {}
    for module, (arguments, sources, _) in modules.items():
        real = {os.path.realpath(source) for source in sources}
        holding = [path for path in by_file if path in real]
        if holding:
            targets[module] = (arguments, sources, holding)
    for path, blocks in by_file.items():
        if not any(path in holding for _, _, holding in targets.values()):
            failures.append(f"NO TARGET {os.path.relpath(path, ROOT)}: no module of the debug build compiles it "
                            "(run `swift build --build-tests` first)")
    fired = set()
    cache = os.path.join(work, "cache")
    overlay = os.path.join(work, "overlay")
    os.makedirs(overlay, exist_ok=True)
    done = set()
    for module in sorted(targets):
        failures += apple_world(module, modules, stubs, stubs_dir, overlay, cache, done)
    for module, (arguments, sources, holding) in sorted(targets.items()):
        sources = sources + (extra_sources or {}).get(module, [])
        command = typecheck_command(arguments, sources, stubs_dir, cache, overlay)
        result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        if result.returncode != 0:
            errors = [line for line in result.stderr.splitlines() if "error:" in line]
            failures.append(f"FAILED    {module} with the Apple stand-ins:\n" + "\n".join(
                "          " + line for line in (errors or result.stderr.splitlines())[:20]))
            continue
        # The planted pass: an `#error` at the top of each checked block must fire.
        planted, replaced = {}, {}
        for path in holding:
            with open(path, encoding="utf-8") as file:
                lines = file.read().splitlines()
            for clause in by_file[path]:
                tag = f"apple-gated-{len(planted)}"
                planted[tag] = clause
                lines[clause.line - 1] += f'\n#error("{tag}")'
            copy = os.path.join(work, module, os.path.basename(path))
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            with open(copy, "w", encoding="utf-8") as file:
                file.write("\n".join(lines) + "\n")
            replaced[path] = copy
        swapped = [replaced.get(os.path.realpath(source), source) for source in sources]
        result = subprocess.run(typecheck_command(arguments, swapped, stubs_dir, cache, overlay), capture_output=True,
                                text=True, cwd=ROOT)
        for tag, clause in planted.items():
            if f'"{tag}"' in result.stderr or f"error: {tag}" in result.stderr:
                fired.add(id(clause))
    for clause in checked:
        if id(clause) not in fired and not any("FAILED" in failure for failure in failures):
            failures.append(f"NOT ON    {clause.label()}: the stand-ins do not turn this block on in any target "
                            "that compiles it")
        elif id(clause) in fired and not quiet:
            print(f"ok        {clause.label()} (type-checked against the stand-ins)")
    if not quiet:
        for clause in forwards:
            print(f"forward   {clause.label()} (one line: {clause.statements()[0] if clause.statements() else '-'})")
        for failure in failures:
            print(failure)
    return failures, checked, forwards


OBSERVATION_AVAILABILITY = re.compile(r"@available\((?=[^)]*\biOS 17)(?=[^)]*\bmacOS 14)[^)]*\)")


def attributes_above(lines, index):
    """The attribute lines written just above (and on) line `index`: `@…` lines, doc comments between skipped."""
    found, cursor = [lines[index]], index - 1
    while cursor >= 0 and (lines[cursor].lstrip().startswith("@") or lines[cursor].lstrip().startswith("///")):
        found.append(lines[cursor])
        cursor -= 1
    return " ".join(found)


def observation_availability(files, quiet=False):
    """Observation (`@Observable`) needs iOS 17 / macOS 14, the package's minimum is iOS 16 / macOS 13, and no Linux
    build checks availability: every `@Observable` type of the library targets, and every extension of one, must say
    `@available(… iOS 17 …, macOS 14 …)`. Returns the failures."""
    failures, observable, texts = [], {}, {}
    for path in files:
        with open(path, encoding="utf-8") as file:
            texts[path] = file.read().splitlines()
    for path, lines in texts.items():
        for index, line in enumerate(lines):
            if re.match(r"^\s*@Observable\b", line) or re.match(r"^\s*@Observable\s", line):
                cursor = index
                while cursor < len(lines) and not re.search(r"\b(class|struct|actor|enum)\s+(\w+)", lines[cursor]):
                    cursor += 1
                if cursor == len(lines):
                    continue
                name = re.search(r"\b(class|struct|actor|enum)\s+(\w+)", lines[cursor]).group(2)
                observable[name] = (path, cursor)
    for name, (path, index) in observable.items():
        if not OBSERVATION_AVAILABILITY.search(attributes_above(texts[path], index)):
            failures.append(f"AVAILABILITY {os.path.relpath(path, ROOT)}:{index + 1}: `@Observable` {name} needs "
                            "@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)")
        elif not quiet:
            print(f"ok        {os.path.relpath(path, ROOT)}:{index + 1}: @Observable {name} carries Observation's availability")
    for path, lines in texts.items():
        for index, line in enumerate(lines):
            match = re.match(r"^\s*(?:public |package |internal |private |fileprivate )?extension\s+(\w+)", line)
            if match and match.group(1) in observable and not OBSERVATION_AVAILABILITY.search(
                    attributes_above(lines, index)):
                failures.append(f"AVAILABILITY {os.path.relpath(path, ROOT)}:{index + 1}: an extension of the "
                                f"`@Observable` {match.group(1)} needs its availability (iOS 17, macOS 14)")
    if not quiet:
        for failure in failures:
            print(failure)
    return failures


def main():
    os.chdir(ROOT)
    self_test = "--self-test" in sys.argv[1:]
    swiftc = "swiftc"
    modules = build_plan()
    with tempfile.TemporaryDirectory() as work:
        stubs_dir = os.path.join(work, "stubs")
        os.makedirs(stubs_dir)
        build_stubs(swiftc, stubs_dir)
        failures, checked, forwards = check(library_sources(), modules, stubs_dir, work)
        failures += observation_availability(library_sources())
        if self_test:
            failures += self_tests(modules, stubs_dir, work)
    print(f"{len(checked)} Apple-only blocks type-checked against the stand-ins, {len(forwards)} one-line forwards, "
          f"{len(failures)} failed")
    return 1 if failures else 0


def self_tests(modules, stubs_dir, work):
    """A file adding an unchecked block, and one adding a checked block that does not compile, must both fail."""
    failures = []
    target = "TenderUI"
    if target not in modules:
        return [f"SELF-TEST FAILED: {target} is not in the debug build's plan"]
    # 1. A block over a framework with no stand-in, more than one line: unchecked.
    unchecked = os.path.join(work, "AppleGatedSelfTest.swift")
    with open(unchecked, "w", encoding="utf-8") as file:
        file.write("#if canImport(CoreBluetooth)\nimport CoreBluetooth\n"
                   "func selfTestScan(_ manager: CBCentralManager) {\n    manager.scanForPeripherals()\n}\n#endif\n")
    found, _, _ = check([unchecked], modules, stubs_dir, os.path.join(work, "self1"), quiet=True)
    if any(failure.startswith("UNCHECKED") for failure in found):
        print("self-test: a file adding a block no Linux build compiles, with no stand-in, is caught")
    else:
        failures.append("SELF-TEST FAILED: an unchecked CoreBluetooth block passed")
    # 2. A block the stand-ins turn on, declaring public API over a framework imported without `public` (the
    #    fault of issue 28 item 10): the type-check must fail.
    broken = os.path.join(work, "AppleGatedSelfTestBroken.swift")
    with open(broken, "w", encoding="utf-8") as file:
        file.write("#if canImport(UIKit)\nimport UIKit\n"
                   "/// A public function over an internally imported type.\n"
                   "@MainActor public func selfTestPresent(from controller: UIViewController) {}\n#endif\n")
    arguments, sources, dependencies = modules[target]
    shadow = {target: (arguments, sources + [broken], dependencies)}
    found, _, _ = check([broken], shadow, stubs_dir, os.path.join(work, "self2"), quiet=True)
    if any(failure.startswith("FAILED") for failure in found):
        print("self-test: a block over UIKit declaring public API over an internal import is caught")
    else:
        failures.append("SELF-TEST FAILED: a broken UIKit block type-checked")
    # 4 (below). An `@Observable` type without Observation's availability.
    # 3. The same block, fixed (`public import`), passes and is really compiled (its planted #error fires).
    fixed = os.path.join(work, "AppleGatedSelfTestFixed.swift")
    with open(fixed, "w", encoding="utf-8") as file:
        file.write("#if canImport(UIKit)\npublic import UIKit\n"
                   "/// A public function over a publicly imported type.\n"
                   "@MainActor public func selfTestPresent(from controller: UIViewController) {}\n#endif\n")
    shadow = {target: (arguments, sources + [fixed], dependencies)}
    found, checked, _ = check([fixed], shadow, stubs_dir, os.path.join(work, "self3"), quiet=True)
    if not found and checked:
        print("self-test: the same block with `public import UIKit` type-checks, and is compiled (its #error fires)")
    else:
        failures.append(f"SELF-TEST FAILED: the fixed UIKit block did not pass: {found}")
    unavailable = os.path.join(work, "ObservableSelfTest.swift")
    with open(unavailable, "w", encoding="utf-8") as file:
        file.write("import Observation\n/// A model.\n@Observable @MainActor\npublic final class SelfTestModel {}\n"
                   "extension SelfTestModel {\n    func more() {}\n}\n")
    found = observation_availability([unavailable], quiet=True)
    if len(found) == 2:
        print("self-test: an @Observable type, and an extension of it, without Observation's availability are caught")
    else:
        failures.append(f"SELF-TEST FAILED: an @Observable type without availability: {found}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
