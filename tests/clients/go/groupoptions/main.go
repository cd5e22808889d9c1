// Command groupoptions sets every field of go-gitlab's CreateGroupOptions and UpdateGroupOptions, one at a
// time, on a running Runway, and reads the group back (issue 24: what terraform's GitLab provider writes
// must read back as written; ../optionwalk does the walking). It prints one JSON object: per operation,
// the keys checked, those read back differently, and the options whose key the group entity does not
// report (nothing to drift on).
//
// Environment: RUNWAY_URL, RUNWAY_TOKEN (an `api` token of a user who may create groups), RUNWAY_GROUP_ID
// (a group the user owns, the parent for parent_id), RUNWAY_TAG.
package main

import (
	"fmt"
	"strconv"

	"github.com/xanzy/go-gitlab"

	walk "../optionwalk"
)

func main() {
	gl, tag, parentID := walk.Setup()
	read := func(id int) map[string]interface{} {
		return walk.Read("/groups/" + strconv.Itoa(id) + "?with_projects=false")
	}
	vals := walk.Values{
		Choices: map[string][]string{
			"visibility":              {"public", "internal"},
			"project_creation_level":  {"noone", "developer"},
			"subgroup_creation_level": {"owner", "maintainer"},
			"shared_runners_setting":  {"disabled_and_unoverridable", "enabled"},
		},
		// 0 (no protection) is the value a client leaving out a zero would lose.
		Ints: map[string]int{"default_branch_protection": 0, "two_factor_grace_period": 12, "parent_id": parentID},
		Read: read,
	}
	n := 0
	// newGroup makes a top-level group (or a subgroup, given parent_id) named after its path.
	newGroup := func(opt *gitlab.CreateGroupOptions) (*gitlab.Group, error) {
		n++
		if opt.Path == nil {
			opt.Path = gitlab.String(fmt.Sprintf("%s-%d", tag, n))
		}
		if opt.Name == nil {
			opt.Name = opt.Path
		}
		g, _, err := gl.Groups.CreateGroup(opt)
		return g, err
	}
	baseline, err := newGroup(&gitlab.CreateGroupOptions{})
	walk.Must(err, "CreateGroup")

	out := map[string]walk.Report{}
	out["create"] = walk.Walk(gitlab.CreateGroupOptions{}, read(baseline.ID), tag, vals, func(opt interface{}) (int, error) {
		g, err := newGroup(opt.(*gitlab.CreateGroupOptions))
		if err != nil {
			return 0, err
		}
		return g.ID, nil
	})
	edited, err := newGroup(&gitlab.CreateGroupOptions{})
	walk.Must(err, "CreateGroup")
	// Another tag: the create walk already took its names and paths.
	out["update"] = walk.Walk(gitlab.UpdateGroupOptions{}, read(edited.ID), tag+"-u", vals, func(opt interface{}) (int, error) {
		_, _, err := gl.Groups.UpdateGroup(edited.ID, opt.(*gitlab.UpdateGroupOptions))
		return edited.ID, err
	})
	walk.Print(out)
}
