"""Checks the deploy files offline (run by scripts/check-deploy, which installs requirements.txt).

1. Every deploy/kubernetes/*.yaml is validated against the Kubernetes API schemas that the pinned
   kubernetes-validate ships, strictly (a field the schema does not know fails), for the oldest
   and the newest Kubernetes release in KUBERNETES_VERSIONS.
2. deploy/Dockerfile: every path it COPYs (or ADDs) from the build context (the repository root,
   as in `docker build -f deploy/Dockerfile -t vload .`) exists, and its stages name the Swift
   version and the Debian release that README.md states.

One line per problem on stderr, exit 1 when there is any. `--self-test` breaks copies of the
files (a misspelt field, an unknown kind, a COPY of a missing path, another Swift or Debian) and
checks that each is caught, and that the unbroken copies pass.
"""

import glob
import json
import os
import re
import shlex
import shutil
import sys
import tempfile

import jsonschema
import kubernetes_validate.utils as kv
import yaml
from referencing import Registry, Resource

# Kubernetes releases the manifests must be valid on: 1.25, the oldest schema set the pinned
# kubernetes-validate ships (Indexed Jobs, which segments-job.yaml uses, are GA since 1.24),
# and 1.37, the newest. Moving the pin in requirements.txt is the time to move these.
KUBERNETES_VERSIONS = ("1.25", "1.37")

# Debian's release numbers and the codenames image tags use (swift:6.3-bookworm).
DEBIAN_CODENAMES = {
    "10": "buster",
    "11": "bullseye",
    "12": "bookworm",
    "13": "trixie",
    "14": "forky",
}
DEBIAN_RELEASES = {name: number for number, name in DEBIAN_CODENAMES.items()}


# --- Kubernetes manifests -------------------------------------------------------------------


def schema_validator(kind, api_version, kubernetes_version):
    """The strict JSON-schema validator for one kind, as kubernetes_validate.validate builds it,
    so that every error of a resource is listed, not only the first."""
    version = [v for v in kv.all_versions() if kv.major_minor(v) <= kubernetes_version][-1]
    schema_dir = "kubernetes-json-schema/v%s-local-strict" % version
    group = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    try:
        schema = kv.schema_contents("%s/%s-%s.json" % (schema_dir, kind.lower(), group), kubernetes_version)
    except FileNotFoundError:
        return None
    definitions = kv.schema_contents("%s/_definitions.json" % schema_dir, kubernetes_version)
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.validators.Draft202012Validator(schema, registry=registry)


def check_manifest(path, label, versions=KUBERNETES_VERSIONS):
    """Problems of one manifest file, one string each, and how many resources it holds."""
    try:
        with open(path) as f:
            documents = [d for d in yaml.safe_load_all(f) if d is not None]
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = " at line %d" % (mark.line + 1) if mark else ""
        return ["%s: not valid YAML%s: %s" % (label, where, getattr(e, "problem", None) or e)], 0
    except OSError as e:
        return ["%s: cannot read: %s" % (label, e.strerror)], 0
    if not documents:
        return ["%s: holds no Kubernetes resource" % label], 0

    found = {}  # problem -> the versions it was found against, so each problem is one line
    for index, resource in enumerate(documents, 1):
        if not isinstance(resource, dict) or not isinstance(resource.get("kind"), str) \
                or not isinstance(resource.get("apiVersion"), str):
            found.setdefault("%s: document %d is not a resource (needs kind and apiVersion)" % (label, index), [])
            continue
        name = (resource.get("metadata") or {}).get("name", "document %d" % index)
        what = "%s: %s/%s" % (label, resource["kind"].lower(), name)
        for version in versions:
            validator = schema_validator(resource["kind"], resource["apiVersion"], version)
            if validator is None:
                problem = "%s: no schema for kind %s in %s" % (what, resource["kind"], resource["apiVersion"])
                found.setdefault(problem, []).append(version)
                continue
            for error in sorted(validator.iter_errors(resource), key=lambda e: list(map(str, e.path))):
                where = ".".join(str(p) for p in error.path) or "(top level)"
                found.setdefault("%s: %s: %s" % (what, where, error.message), []).append(version)
    problems = []
    for problem, against in found.items():
        problems.append(problem + (" (Kubernetes %s)" % ", ".join(against) if against else ""))
    return problems, len(documents)


# --- Dockerfile -----------------------------------------------------------------------------


def instructions(text):
    """(line number, instruction, arguments) for each instruction, continuation lines joined."""
    result, pending, start = [], "", 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        word, _, rest = whole.partition(" ")
        result.append((start, word.upper(), rest.strip()))
    return result


def readme_versions(readme_text):
    """The Swift version and Debian release README.md states, or a problem each."""
    problems, stated = [], {}
    for what, pattern in (("Swift", r"\bSwift (\d+\.\d+(?:\.\d+)?)\b"), ("Debian", r"\bDebian (\d+)\b")):
        values = sorted(set(re.findall(pattern, readme_text)))
        if len(values) == 1:
            stated[what] = values[0]
        elif not values:
            problems.append("README.md: states no %s version (\"%s N\")" % (what, what))
        else:
            problems.append("README.md: states several %s versions: %s" % (what, ", ".join(values)))
    return stated, problems


def same_version(tag_version, stated):
    return tag_version == stated or tag_version.startswith(stated + ".")


def check_dockerfile(path, label, context, readme_text):
    """Problems of the Dockerfile, and what was checked (for the summary line)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return ["%s: cannot read: %s" % (label, e.strerror)], None
    stated, problems = readme_versions(readme_text)
    stages, copied = [], 0
    for line, word, args in instructions(text):
        where = "%s:%d" % (label, line)
        if word == "FROM":
            parts = [p for p in args.split() if not p.startswith("--")]
            image = parts[0] if parts else ""
            stage = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
            if image in [s for s, _ in stages]:
                stages.append((stage, image))
                continue  # built on an earlier stage: checked there
            stages.append((stage, image))
            problems += check_base_image(where, image, stated)
        elif word in ("COPY", "ADD"):
            if args.startswith("["):
                try:
                    words = json.loads(args)
                except ValueError:
                    problems.append("%s: %s in JSON form that does not parse: %s" % (where, word, args))
                    continue
            else:
                words = shlex.split(args)
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            if any(f.startswith("--from=") for f in flags):
                continue  # from another stage or image, not from the build context
            if len(paths) < 2:
                problems.append("%s: %s needs a source and a destination: %s" % (where, word, args))
                continue
            for source in paths[:-1]:
                if re.match(r"^[a-z]+://", source) or source.startswith("git@"):
                    continue  # ADD of a URL
                copied += 1
                relative = os.path.normpath(source.lstrip("/"))
                if relative.startswith(".."):
                    problems.append("%s: %s %s is outside the build context" % (where, word, source))
                elif not glob.glob(os.path.join(context, relative)):
                    problems.append("%s: %s %s: no such path in the repository" % (where, word, source))
    if not stages:
        problems.append("%s: has no FROM" % label)
    return problems, (copied, stated)


def check_base_image(where, image, stated):
    """Problems of one stage's base image against README.md's Swift version and Debian release."""
    problems = []
    name, _, tag = image.partition(":")
    name = name.split("/")[-1]
    if "$" in image:
        return ["%s: FROM %s: cannot check an image named by a build argument" % (where, image)]
    if name == "swift":
        match = re.match(r"^(\d+\.\d+(?:\.\d+)?)-([a-z]+)(?:-slim)?$", tag)
        if not match:
            return ["%s: FROM %s: the tag names no Swift version and Debian release (like 6.3-bookworm)" % (where, image)]
        swift, codename = match.groups()
        if "Swift" in stated and not same_version(swift, stated["Swift"]):
            problems.append("%s: FROM %s: Swift %s, README.md says Swift %s" % (where, image, swift, stated["Swift"]))
        debian = DEBIAN_RELEASES.get(codename)
    elif name == "debian":
        match = re.match(r"^(\d+|[a-z]+)(?:[.-].*)?$", tag)
        release = match.group(1) if match else ""
        debian = release if release.isdigit() else DEBIAN_RELEASES.get(release)
    else:
        return ["%s: FROM %s: not a swift or debian image, so not the Debian README.md states" % (where, image)]
    if debian is None:
        problems.append("%s: FROM %s: names no Debian release" % (where, image))
    elif "Debian" in stated and debian != stated["Debian"]:
        problems.append("%s: FROM %s: Debian %s (%s), README.md says Debian %s (%s)" % (
            where, image, debian, DEBIAN_CODENAMES.get(debian, "?"),
            stated["Debian"], DEBIAN_CODENAMES.get(stated["Debian"], "?")))
    return problems


# --- the whole check ------------------------------------------------------------------------


def check(root):
    """Every problem of the deploy files under root, and a summary of what was checked."""
    problems, resources = [], 0
    manifests = sorted(glob.glob(os.path.join(root, "deploy", "kubernetes", "*.yaml")))
    if not manifests:
        problems.append("deploy/kubernetes: no *.yaml manifest")
    for path in manifests:
        found, count = check_manifest(path, os.path.relpath(path, root))
        problems += found
        resources += count
    try:
        with open(os.path.join(root, "README.md")) as f:
            readme = f.read()
    except OSError as e:
        readme = ""
        problems.append("README.md: cannot read: %s" % e.strerror)
    found, checked = check_dockerfile(os.path.join(root, "deploy", "Dockerfile"), "deploy/Dockerfile", root, readme)
    problems += found
    summary = ["%d manifests (%d resources) valid against the Kubernetes %s schemas, strict"
               % (len(manifests), resources, " and ".join(KUBERNETES_VERSIONS))]
    if checked:
        copied, stated = checked
        summary.append("deploy/Dockerfile: %d COPY sources present, Swift %s and Debian %s as README.md states"
                       % (copied, stated.get("Swift", "?"), stated.get("Debian", "?")))
    return problems, summary


def self_test(root):
    """Breaks copies of the deploy files and checks that each break is caught. Returns failures."""
    failures, cases = [], 0
    scratch = tempfile.mkdtemp(prefix="check-deploy-")
    try:
        with open(os.path.join(root, "README.md")) as f:
            readme = f.read()

        def manifest_case(name, source, edit, expect):
            nonlocal cases
            cases += 1
            with open(os.path.join(root, "deploy", "kubernetes", source)) as f:
                original = f.read()
            broken = edit(original)
            if broken == original:
                failures.append("%s: the edit changed nothing in %s" % (name, source))
                return
            path = os.path.join(scratch, source)
            for text, want in ((original, None), (broken, expect)):
                with open(path, "w") as f:
                    f.write(text)
                problems, _ = check_manifest(path, source)
                if want is None and problems:
                    failures.append("%s: the unbroken %s fails: %s" % (name, source, problems[0]))
                    return
                if want is not None and not any(want in p for p in problems):
                    failures.append("%s: expected a problem naming %r, got %s" % (name, want, problems or "none"))

        manifest_case("misspelt required field", "merge-job.yaml",
                      lambda t: t.replace("containers:", "contianers:", 1), "'contianers' was unexpected")
        manifest_case("misspelt optional field (strict)", "segments-job.yaml",
                      lambda t: t.replace("backoffLimit:", "backofLimit:", 1), "'backofLimit' was unexpected")
        manifest_case("misspelt nested field", "segments-job.yaml",
                      lambda t: t.replace("containerPort:", "contanerPort:", 1), "'contanerPort' was unexpected")
        manifest_case("wrong type", "reports-volume.yaml",
                      lambda t: t.replace("accessModes: [ReadWriteMany]", "accessModes: ReadWriteMany", 1),
                      "is not of type 'array'")
        manifest_case("unknown kind", "merge-job.yaml",
                      lambda t: t.replace("kind: Job", "kind: Jobb", 1), "no schema for kind Jobb")
        manifest_case("not YAML", "merge-job.yaml",
                      lambda t: t.replace("labels: {app: vload}", "labels: {app: vload", 1), "not valid YAML")

        def dockerfile_case(name, edit, expect, readme_text=readme):
            nonlocal cases
            cases += 1
            with open(os.path.join(root, "deploy", "Dockerfile")) as f:
                original = f.read()
            broken = edit(original)
            if broken == original and readme_text == readme and expect is not None:
                failures.append("%s: the edit changed nothing in deploy/Dockerfile" % name)
                return
            path = os.path.join(scratch, "Dockerfile")
            with open(path, "w") as f:
                f.write(broken)
            problems, _ = check_dockerfile(path, "Dockerfile", root, readme_text)
            if expect is None and problems:
                failures.append("%s: expected no problem, got %s" % (name, problems))
            if expect is not None and not any(expect in p for p in problems):
                failures.append("%s: expected a problem naming %r, got %s" % (name, expect, problems or "none"))

        dockerfile_case("unbroken", lambda t: t, None)
        dockerfile_case("COPY of a missing path", lambda t: t.replace("COPY scenarios ./scenarios",
                                                                      "COPY scenarioz ./scenarios", 1),
                        "COPY scenarioz: no such path")
        dockerfile_case("COPY of a missing file among several", lambda t: t.replace(
            "COPY Package.swift ./", "COPY Package.swift Package.resolved.missing ./", 1),
            "Package.resolved.missing: no such path")
        dockerfile_case("another Swift", lambda t: re.sub(r"swift:[0-9.]+-", "swift:5.10-", t, count=1),
                        "Swift 5.10, README.md says")
        dockerfile_case("another Debian in the build stage",
                        lambda t: re.sub(r"(swift:[0-9.]+)-[a-z]+", r"\1-trixie", t, count=1),
                        "Debian 13 (trixie), README.md says")
        dockerfile_case("another Debian in the runtime stage",
                        lambda t: re.sub(r"debian:\d+", "debian:11", t, count=1),
                        "Debian 11 (bullseye), README.md says")
        dockerfile_case("README.md states another Swift", lambda t: t, "README.md says Swift 9.9",
                        readme_text=re.sub(r"\bSwift \d+\.\d+", "Swift 9.9", readme))
        dockerfile_case("README.md states two Debians", lambda t: t, "several Debian versions",
                        readme_text=readme + "\nDebian 13 too.\n")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return failures, cases


def main(argv):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    if argv == ["--self-test"]:
        failures, cases = self_test(root)
        for failure in failures:
            print("check-deploy self-test: %s" % failure, file=sys.stderr)
        print("check-deploy self-test: %d passed, %d failed" % (cases - len(failures), len(failures)))
        return 1 if failures else 0
    if argv:
        print("usage: scripts/check-deploy [--self-test]", file=sys.stderr)
        return 2
    problems, summary = check(root)
    for problem in problems:
        print("check-deploy: %s" % problem, file=sys.stderr)
    if problems:
        print("check-deploy: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"), file=sys.stderr)
        return 1
    for line in summary:
        print("check-deploy: %s" % line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
