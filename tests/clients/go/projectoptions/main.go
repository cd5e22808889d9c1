// Command projectoptions sets every field of go-gitlab's CreateProjectOptions and EditProjectOptions, one
// at a time, on a running Runway, and reads the project back (issue 24: what terraform's GitLab provider
// writes must read back as written; ../optionwalk does the walking). It prints one JSON object: per
// operation, the keys checked, those read back differently, and the options whose key the project entity
// does not report (nothing to drift on).
//
// Environment: RUNWAY_URL, RUNWAY_TOKEN (an `api` token), RUNWAY_GROUP_ID (a public group of the token's
// user, where the projects are made), RUNWAY_TAG.
package main

import (
	"fmt"
	"strconv"

	"github.com/xanzy/go-gitlab"

	walk "../optionwalk"
)

func main() {
	gl, tag, groupID := walk.Setup()
	read := func(id int) map[string]interface{} { return walk.Read("/projects/" + strconv.Itoa(id)) }
	vals := func(tag string) walk.Values {
		return walk.Values{
			Choices: map[string][]string{
				"auto_cancel_pending_pipelines": {"enabled", "disabled"},
				"build_git_strategy":            {"fetch", "clone"},
				"merge_method":                  {"merge", "ff"},
				"squash_option":                 {"default_off", "always"},
				"visibility":                    {"private", "internal"},
			},
			Ints:    map[string]int{"build_timeout": 7200, "ci_default_git_depth": 42, "max_artifacts_size": 12},
			Strings: map[string]string{"ci_config_path": "ci/" + tag + ".yml"},
			Aliases: map[string]string{"public_builds": "public_jobs"},
			Skip: map[string]string{
				"default_branch": "PUT needs an existing branch",
				"import_url":     "starts an import",
			},
			Read: read,
		}
	}
	n := 0
	newProject := func(opt *gitlab.CreateProjectOptions) (*gitlab.Project, error) {
		n++
		opt.Path = gitlab.String(fmt.Sprintf("%s-%d", tag, n))
		opt.NamespaceID = gitlab.Int(groupID)
		p, _, err := gl.Projects.CreateProject(opt)
		return p, err
	}
	baseline, err := newProject(&gitlab.CreateProjectOptions{})
	walk.Must(err, "CreateProject")

	out := map[string]walk.Report{}
	out["create"] = walk.Walk(gitlab.CreateProjectOptions{}, read(baseline.ID), tag, vals(tag), func(o interface{}) (int, error) {
		opt := o.(*gitlab.CreateProjectOptions)
		if opt.Path != nil {
			// The path option itself: keep it, and name the project after it.
			p, _, err := gl.Projects.CreateProject(&gitlab.CreateProjectOptions{Path: opt.Path, Name: opt.Path, NamespaceID: gitlab.Int(groupID)})
			if err != nil {
				return 0, err
			}
			return p.ID, nil
		}
		if opt.RepositoryAccessLevel != nil {
			// Builds and merge requests may not be more visible than the repository (GitLab's 400 otherwise).
			opt.BuildsAccessLevel = opt.RepositoryAccessLevel
			opt.MergeRequestsAccessLevel = opt.RepositoryAccessLevel
		}
		p, err := newProject(opt)
		if err != nil {
			return 0, err
		}
		return p.ID, nil
	})
	edited, err := newProject(&gitlab.CreateProjectOptions{})
	walk.Must(err, "CreateProject")
	// Another tag: the create walk already took its names and paths.
	out["edit"] = walk.Walk(gitlab.EditProjectOptions{}, read(edited.ID), tag+"-e", vals(tag+"-e"), func(opt interface{}) (int, error) {
		_, _, err := gl.Projects.EditProject(edited.ID, opt.(*gitlab.EditProjectOptions))
		return edited.ID, err
	})
	walk.Print(out)
}
