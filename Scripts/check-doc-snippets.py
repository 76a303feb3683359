#!/usr/bin/env python3
"""The documentation's Swift examples type-check against the public API as it is.

Every ```swift block of the README and of the DocC catalog is either type-checked or listed below as skipped, with
the reason (a manifest fragment, a framework this machine does not have). A block is compiled as an app would hold
it: its own imports (the vendor SDKs' modules mapped to the package's exact mirrors of their surface, the bridges to
their copies compiled against those mirrors), `Foundation` and, for a block without imports, the modules its article
is about; its statements inside a `@MainActor` async throwing function (an app's view model or launch code), its
declarations at file scope. The names an example takes from its article (`myServer`, `ledgerURL`, `terminal`…) come
from Scripts/doc-snippets/Context.swift. Only `public` API is visible: the example is a separate module.

Run after `swift build --build-tests` (the modules come from the debug build):
    python3 Scripts/check-doc-snippets.py            check every block; exit 1 on a failure or an unlisted block
    python3 Scripts/check-doc-snippets.py --self-test  also check that a broken example is caught
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md"] + sorted(glob.glob("Sources/Tender/Tender.docc/*.md")) + sorted(
    glob.glob("Adapters/*/README.md")) + sorted(glob.glob("Examples/*/README.md")) + sorted(
    glob.glob("Sources/**/*.swift", recursive=True) + glob.glob("Adapters/*/Sources/**/*.swift", recursive=True))
# Not checked: the mirrors of the vendor SDKs' surface and their test backends (package-internal, never shipped).
DOCUMENTS = [path for path in DOCUMENTS if "/Sources/Mirror/" not in path]

# Blocks compiled in another package (one with the framework they use), by file and first line: the file that holds
# the same text between `// doc-snippet <name>: begin` and `…: end`. The check here is that the texts are the same;
# that package's build (in .ci/run) compiles it and its tests run it.
ELSEWHERE = {
    ("Sources/Tender/Tender.docc/YourServer.md",
     "@Sendable func tender(_ request: Request, context: DeviceContext) async throws -> Response {"):
        ("Examples/MerchantServer/Tests/MerchantServerTests/YourServerSnippetTests.swift",
         "YourServer.md hummingbird"),
}

# Blocks not type-checked here, by file and first line, with the reason. Anything else must compile.
SKIPPED = {
    ("README.md", '.package(url: "<Tender\'s repository URL>", from: "<version>"),'):
        "a Package.swift fragment (checked by Scripts/check-install.sh)",
    ("README.md", '.package(url: "<Tender\'s repository URL>", from: "<version>", traits: ["StripeTerminalSDK"]),'):
        "a Package.swift fragment (checked by Scripts/check-install.sh)",
    ("Sources/Tender/Tender.docc/UsingTheRealSDKs.md",
     '.package(url: "<Tender\'s repository URL>", from: "<version>", traits: ["StripeTerminalSDK"]),'):
        "a Package.swift fragment (checked by Scripts/check-install.sh)",
    ("Sources/Tender/Tender.docc/UsingTheRealSDKs.md",
     '.package(url: "<Tender\'s repository URL>", from: "<version>", traits: ["SquareMobilePaymentsSDK"]),'):
        "a Package.swift fragment (checked by Scripts/check-install.sh)",
    ("Sources/Tender/Tender.docc/BuildingTheApp.md", '#Preview("Offline") {'):
        "SwiftUI's #Preview macro: Apple platforms only",
    ("Sources/Tender/Tender.docc/BuildingTheApp.md", "// In the UI test"):
        "XCTest's XCUIApplication: Apple platforms only",
    ("Sources/Tender/Tender.docc/BuildingTheApp.md",
     'terminal.setLogHandler(OSLogHandler(subsystem: "com.example.pos"), minimumLevel: .info)'):
        "OSLogHandler exists where `os` does: Apple platforms only",
    ("Sources/Tender/Tender.docc/WritingAnAdapter.md", "import TenderTestKit"):
        "HouseAccountSubject is Examples/AdapterTemplate's, whose HouseAccountConformanceTests run this code",
    ("Sources/Tender/Tender.docc/UsingTheRealSDKs.md", "import SquareMobilePaymentsSDK"):
        "SquareProcessor.mobilePayments exists where Network does (the bridge watches the network with "
        "NWPathMonitor): Apple platforms only",
    ("Sources/Tender/Tender.docc/YourServer.md", "import SquareMobilePaymentsSDK"):
        "SquareProcessor.mobilePayments exists where Network does (the bridge watches the network with "
        "NWPathMonitor): Apple platforms only",
    ("Sources/TenderUI/TerminalModel.swift", "@State var model = TerminalModel(terminal: terminal)"):
        "a SwiftUI view: Apple platforms only",
    ("Sources/TenderUI/OSLogHandler.swift",
     'terminal.setLogHandler(OSLogHandler(subsystem: "com.example.pos"), minimumLevel: .info)'):
        "OSLogHandler exists where `os` does: Apple platforms only",
    ("Sources/TenderPreviews/PreviewScenario.swift", "// XCUITest"):
        "XCTest's XCUIApplication: Apple platforms only",
    ("Sources/TenderPreviews/PreviewScenario.swift", '#Preview("Declines") {'):
        "SwiftUI's #Preview macro: Apple platforms only",
    ("Sources/TenderWire/Logging/TenderLog.swift", "import Logging"):
        "a swift-log handler: swift-log is not a dependency of this package",
    ("Sources/TestSupport/TenderTestKit/ConformanceSuite.swift", "@Test func conforms() async throws {"):
        "MySubject is the adapter author's; Examples/AdapterTemplate's HouseAccountConformanceTests run this code",
    ("Sources/TestSupport/TenderTestKit/TenderConformance.swift", "@Test func conforms() async {"):
        "MySubject is the adapter author's; Examples/AdapterTemplate's HouseAccountConformanceTests run this code",
    ("Sources/TestSupport/TenderTestKit/FaultInjectingLedger.swift",
     "let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())"):
        "the package's own tests: its initializer and the in-memory ledger are `package`",
    ("Adapters/Square/Sources/Bridge/SquareBridge.swift",
     '.package(url: "<Tender\'s repository URL>", from: "<version>", traits: ["SquareMobilePaymentsSDK"]),'):
        "a Package.swift fragment (checked by Scripts/check-install.sh)",
    ("Adapters/Square/Sources/Bridge/SquareBridge.swift", "import SquareMobilePaymentsSDK"):
        "SquareProcessor.mobilePayments exists where Network does (the bridge watches the network with "
        "NWPathMonitor): Apple platforms only",
    ("Adapters/Square/Sources/Bridge/SquareBridge+Processor.swift",
     "let processor = SquareProcessor.mobilePayments(captureService: myServer, refundService: myServer,"):
        "SquareProcessor.mobilePayments exists where Network does (the bridge watches the network with "
        "NWPathMonitor): Apple platforms only",
}

# What an app imports → the module that holds the same public API in this package's debug build.
MODULES = {
    "StripeTerminal": "StripeTerminalSurface",
    "TenderStripeTerminal": "TenderStripeTerminalOverSurface",
    "SquareMobilePaymentsSDK": "SquareMobilePaymentsSurface",
    "TenderSquareMobilePayments": "TenderSquareMobilePaymentsOverSurface",
}
# A block without imports is read with the modules of the article or the source folder it stands in.
DEFAULT_IMPORTS = ["Tender", "TenderStripe", "TenderSquare", "TenderUI", "TenderPreviews"]
FOLDER_IMPORTS = {
    "Adapters/Stripe/Sources/Bridge/": ["StripeTerminal", "Tender", "TenderStripe", "TenderStripeTerminal"],
    "Adapters/Square/Sources/Bridge/": ["SquareMobilePaymentsSDK", "Tender", "TenderSquare",
                                        "TenderSquareMobilePayments"],
    "Sources/TenderServer/": ["TenderServer"],
    "Sources/TenderBackend/": ["StripeTerminal", "TenderBackend", "TenderStripe", "TenderStripeTerminal"],
    "Sources/TestSupport/": ["Tender", "TenderTestKit", "TenderTesting"],
}
# Extra names a block's imports call for (the Square mirror's UIViewController stand-in).
EXTRA_CONTEXT = {
    "SquareMobilePaymentsSDK": "import SquareMobilePaymentsSurface\n"
                               "@MainActor var checkoutViewController: UIViewController? { nil }\n",
}
DECLARATION = re.compile(r"^(@[A-Za-z]+(\([^)]*\))?\s+)*(public\s+|private\s+)?(func|struct|final class|class|enum|"
                         r"actor|extension|protocol)\b")


def blocks(path):
    """The ```swift blocks of a Markdown file, or of a Swift file's `///` documentation comments: (first line
    number, text)."""
    found, current, start = [], None, 0
    comments = path.endswith(".swift")
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if comments:
                stripped = line.strip()
                if not stripped.startswith("///"):
                    if current is not None:
                        raise SystemExit(f"{path}:{number}: a ```swift block in a comment is not closed")
                    continue
                line = stripped[4:] + "\n" if stripped.startswith("/// ") else stripped[3:] + "\n"
            if current is None and line.strip() == "```swift":
                current, start = [], number + 1
            elif current is not None and line.strip() == "```":
                found.append((start, "".join(current)))
                current = None
            elif current is not None:
                current.append(line)
    return found


def default_imports(document):
    for folder, modules in FOLDER_IMPORTS.items():
        if document.startswith(folder):
            return modules
    return DEFAULT_IMPORTS


def source(text, defaults):
    """The example as a Swift file: imports first, declarations at file scope, statements in a function."""
    imports, declarations, statements = [], [], []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        match = re.match(r"^import\s+(\w+)", line)
        if match:
            imports.append(match.group(1))
        elif DECLARATION.match(line):
            # A declaration runs to the line that closes it (brace depth back to zero).
            depth, chunk = 0, []
            while index < len(lines):
                chunk.append(lines[index])
                depth += lines[index].count("{") - lines[index].count("}")
                if depth <= 0 and "{" in "".join(chunk):
                    break
                index += 1
            declarations.extend(chunk)
        else:
            statements.append(line)
        index += 1
    modules = ["Foundation"] + [MODULES.get(name, name) for name in (imports or defaults)]
    if "@Test" in text:
        modules.append("Testing")
    header = "".join(f"import {name}\n" for name in dict.fromkeys(modules))
    body = "\n".join("    " + line for line in statements)
    return header + "\n".join(declarations) + (
        f"\n@MainActor func documentationExample() async throws {{\n{body}\n}}\n"), imports or defaults


def typecheck(files, modules_dir):
    command = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "DocumentationExample",
               "-I", modules_dir, "-I", os.path.join(ROOT, "Sources/CSQLite")] + files
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode == 0, result.stderr


def check(text, label, modules_dir, work, defaults=DEFAULT_IMPORTS, quiet=False):
    swift, imports = source(text, defaults)
    path = os.path.join(work, "Example.swift")
    with open(path, "w", encoding="utf-8") as file:
        file.write(swift)
    files = [os.path.join(ROOT, "Scripts/doc-snippets/Context.swift"), path]
    for name in imports:
        if name in EXTRA_CONTEXT:
            extra = os.path.join(work, f"Context{name}.swift")
            with open(extra, "w", encoding="utf-8") as file:
                file.write(EXTRA_CONTEXT[name])
            files.append(extra)
    ok, errors = typecheck(files, modules_dir)
    if not ok and not quiet:
        print(f"FAILED  {label}\n" + "\n".join("        " + line for line in errors.strip().splitlines()[:30]))
    return ok


def same_as_elsewhere(text, path, name):
    """Whether `text` is, line for line (indentation aside), the region of `path` between its markers."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        lines = file.read().splitlines()
    begin = [i for i, line in enumerate(lines) if line.strip() == f"// doc-snippet {name}: begin"]
    end = [i for i, line in enumerate(lines) if line.strip() == f"// doc-snippet {name}: end"]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        return False
    region = lines[begin[0] + 1:end[0]]
    indent = min((len(line) - len(line.lstrip()) for line in region if line.strip()), default=0)
    return [line[indent:].rstrip() for line in region] == [line.rstrip() for line in text.strip("\n").splitlines()]


def main():
    os.chdir(ROOT)
    self_test = "--self-test" in sys.argv[1:]
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                              check=True).stdout.strip()
    modules_dir = os.path.join(bin_path, "Modules")
    failed, checked, skipped, seen = 0, 0, 0, set()
    with tempfile.TemporaryDirectory() as work:
        for document in DOCUMENTS:
            for line, text in blocks(document):
                first = text.splitlines()[0].strip() if text.strip() else ""
                label = f"{document}:{line}"
                key = (document, first)
                if key in ELSEWHERE:
                    seen.add(key)
                    checked += 1
                    if same_as_elsewhere(text, *ELSEWHERE[key]):
                        print(f"ok      {label} (compiled in {ELSEWHERE[key][0]})")
                    else:
                        failed += 1
                        print(f"FAILED  {label}: not the text compiled in {ELSEWHERE[key][0]} "
                              f"(between the '{ELSEWHERE[key][1]}' markers)")
                    continue
                if key in SKIPPED:
                    seen.add(key)
                    skipped += 1
                    print(f"skipped {label}: {SKIPPED[key]}")
                    continue
                checked += 1
                if check(text, label, modules_dir, work, default_imports(document)):
                    print(f"ok      {label}")
                else:
                    failed += 1
        for key in (SKIPPED.keys() | ELSEWHERE.keys()) - seen:
            print(f"STALE   the skip list names a block that is gone: {key[0]}: {key[1]}")
            failed += 1
        if self_test:
            # A block that differs from the compiled copy by one line must fail.
            path, name = next(iter(ELSEWHERE.values()))
            if same_as_elsewhere("router.group(\"tender\")\n", path, name):
                print("SELF-TEST FAILED: a block unlike the compiled copy passed")
                failed += 1
            else:
                print("self-test: a block unlike its compiled copy is caught")
            # A call that does not exist must fail: the check is not vacuous.
            broken = "let session = try await terminal.takePayment(reference: \"order-1\")\n"
            if check(broken, "self-test", modules_dir, work, quiet=True):
                print("SELF-TEST FAILED: an example calling an API that does not exist type-checked")
                failed += 1
            else:
                print("self-test: an example calling an API that does not exist is caught")
    print(f"{checked} examples type-checked, {skipped} skipped (reason given), {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
