import Testing
import Yams

/// examples/ci/: the GitHub Actions workflow and the GitLab CI job that docs/ci.md links to are
/// valid YAML of the right shape, and every vload command line in them parses.
@Suite struct CIExampleTests {
    @Test func gitHubWorkflowHasJobsWithStepsAndPublishesTheReports() throws {
        let workflow = try CIExample(path: CIExample.gitHubActions)
        #expect(CIExample.value("on", in: workflow.root) != nil)
        let jobs = CIExample.entries(of: CIExample.value("jobs", in: workflow.root))
        #expect(!jobs.isEmpty)
        var actions: [String] = []
        for (name, job) in jobs {
            #expect(CIExample.value("runs-on", in: job)?.string != nil, "job \(name) has no runs-on")
            let steps = CIExample.value("steps", in: job)?.sequence ?? []
            #expect(!steps.isEmpty, "job \(name) has no steps")
            for step in steps {
                let uses = CIExample.value("uses", in: step)?.string
                #expect((uses != nil) != (CIExample.value("run", in: step) != nil), "a step of \(name) needs one of uses or run")
                if let uses { actions.append(String(uses.prefix { $0 != "@" })) }
            }
        }
        #expect(actions.contains("actions/upload-artifact"))
        #expect(actions.contains("mikepenz/action-junit-report"))
        #expect(workflow.shellScripts.contains { $0.contains("summary.md") })
    }

    @Test func gitLabJobHasAScriptAndPublishesTheReports() throws {
        let pipeline = try CIExample(path: CIExample.gitLab)
        let jobs = pipeline.gitLabJobs
        #expect(!jobs.isEmpty)
        for (name, job) in jobs {
            let script = CIExample.value("script", in: job)
            #expect(script?.sequence?.isEmpty == false || script?.string != nil, "job \(name) has no script")
            let artifacts = CIExample.value("artifacts", in: job)
            let junit = CIExample.value("junit", in: CIExample.value("reports", in: artifacts))?.string
            #expect(junit?.hasSuffix("junit.xml") == true, "job \(name) publishes no junit.xml")
            let paths = CIExample.value("paths", in: artifacts)?.sequence?.compactMap(\.string) ?? []
            #expect(!paths.isEmpty, "job \(name) keeps no artifact paths")
            #expect(CIExample.value("when", in: artifacts)?.string == "always", "job \(name) must keep its reports when it fails")
        }
    }

    @Test(arguments: [CIExample.gitHubActions, CIExample.gitLab])
    func vloadCommandLinesParse(path: String) throws {
        let commands = try CIExample(path: path).vloadCommands
        #expect(!commands.isEmpty, "\(path) runs no vload command")
        for arguments in commands {
            let problem = VLoadCommandCheck.problem(with: arguments)
            #expect(problem == nil, "\(path): vload \(arguments.joined(separator: " ")): \(problem ?? "")")
        }
    }
}
