// Command lifecycle drives Debian's go-gitlab (github.com/xanzy/go-gitlab) through the create-update-delete
// cycle of a user (as an admin), and of a group and a project with a member added, changed and removed, on
// a running Runway. It prints one JSON object of what go-gitlab saw; tests/clients/go-gitlab-lifecycle.test.ts
// asserts on it.
//
// Environment: RUNWAY_URL, RUNWAY_TOKEN (an `api` token), RUNWAY_ADMIN_TOKEN (an admin's `api` token),
// RUNWAY_MEMBER_ID (a user to add), RUNWAY_TAG.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/xanzy/go-gitlab"

	"../optionwalk"
)

// must stops the command on an error of a step that should succeed.
var must = optionwalk.Must

// statusOf runs a call that should fail and reports the HTTP status it failed with (0: it did not fail).
func statusOf(resp *gitlab.Response, err error) int {
	if err == nil {
		return 0
	}
	if resp != nil {
		return resp.StatusCode
	}
	return -1
}

func main() {
	tag := os.Getenv("RUNWAY_TAG")
	memberID, err := strconv.Atoi(os.Getenv("RUNWAY_MEMBER_ID"))
	must(err, "RUNWAY_MEMBER_ID")
	gl, err := gitlab.NewClient(os.Getenv("RUNWAY_TOKEN"), gitlab.WithBaseURL(os.Getenv("RUNWAY_URL")+"/api/v4"))
	must(err, "client")
	seen := map[string]interface{}{}

	group, _, err := gl.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name: gitlab.String(tag + " Group"), Path: gitlab.String(tag + "-group"), Visibility: gitlab.Visibility(gitlab.InternalVisibility),
	})
	must(err, "CreateGroup")
	group, _, err = gl.Groups.UpdateGroup(group.ID, &gitlab.UpdateGroupOptions{
		Name: gitlab.String(tag + " Renamed"), Path: gitlab.String(tag + "-renamed"), Description: gitlab.String("by go-gitlab"),
	})
	must(err, "UpdateGroup")
	seen["group"] = map[string]interface{}{"name": group.Name, "full_path": group.FullPath, "description": group.Description}

	project, _, err := gl.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name: gitlab.String(tag + " Project"), Path: gitlab.String(tag + "-project"), NamespaceID: gitlab.Int(group.ID),
	})
	must(err, "CreateProject")
	project, _, err = gl.Projects.EditProject(project.ID, &gitlab.EditProjectOptions{
		Description: gitlab.String("by go-gitlab"), SharedRunnersEnabled: gitlab.Bool(false), Visibility: gitlab.Visibility(gitlab.InternalVisibility),
	})
	must(err, "EditProject")
	seen["project"] = map[string]interface{}{
		"path_with_namespace": project.PathWithNamespace, "description": project.Description,
		"shared_runners_enabled": project.SharedRunnersEnabled, "visibility": string(project.Visibility),
	}

	_, _, err = gl.ProjectMembers.AddProjectMember(project.ID, &gitlab.AddProjectMemberOptions{
		UserID: memberID, AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions),
	})
	must(err, "AddProjectMember")
	member, _, err := gl.ProjectMembers.GetProjectMember(project.ID, memberID)
	must(err, "GetProjectMember")
	seen["member"] = map[string]interface{}{"id": member.ID, "access_level": int(member.AccessLevel)}
	member, _, err = gl.ProjectMembers.EditProjectMember(project.ID, memberID, &gitlab.EditProjectMemberOptions{
		AccessLevel: gitlab.AccessLevel(gitlab.MaintainerPermissions),
	})
	must(err, "EditProjectMember")
	seen["member_edited"] = int(member.AccessLevel)
	resp, err := gl.ProjectMembers.DeleteProjectMember(project.ID, memberID)
	must(err, "DeleteProjectMember")
	seen["member_delete_status"] = resp.StatusCode
	_, resp, err = gl.ProjectMembers.GetProjectMember(project.ID, memberID)
	seen["member_after"] = statusOf(resp, err)

	resp, err = gl.Projects.DeleteProject(project.ID)
	must(err, "DeleteProject")
	seen["project_delete_status"] = resp.StatusCode
	_, resp, err = gl.Projects.GetProject(project.ID, nil)
	seen["project_after"] = statusOf(resp, err)

	resp, err = gl.Groups.DeleteGroup(group.ID)
	must(err, "DeleteGroup")
	seen["group_delete_status"] = resp.StatusCode
	_, resp, err = gl.Groups.GetGroup(group.ID, nil)
	seen["group_after"] = statusOf(resp, err)

	admin, err := gitlab.NewClient(os.Getenv("RUNWAY_ADMIN_TOKEN"), gitlab.WithBaseURL(os.Getenv("RUNWAY_URL")+"/api/v4"))
	must(err, "admin client")
	user, _, err := admin.Users.CreateUser(&gitlab.CreateUserOptions{
		Username: gitlab.String(tag + "-user"), Name: gitlab.String(tag + " User"), Email: gitlab.String(tag + "@example.com"),
		Password: gitlab.String("go-gitlab-password-1"),
	})
	must(err, "CreateUser")
	user, _, err = admin.Users.ModifyUser(user.ID, &gitlab.ModifyUserOptions{Name: gitlab.String(tag + " Renamed User")})
	must(err, "ModifyUser")
	seen["user"] = map[string]interface{}{"username": user.Username, "name": user.Name}
	resp, err = admin.Users.DeleteUser(user.ID)
	must(err, "DeleteUser")
	seen["user_delete_status"] = resp.StatusCode
	_, resp, err = admin.Users.GetUser(user.ID, gitlab.GetUsersOptions{})
	seen["user_after"] = statusOf(resp, err)

	out, err := json.Marshal(seen)
	must(err, "json")
	fmt.Println(string(out))
}
