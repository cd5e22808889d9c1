// Command projectoptions sets every field of go-gitlab's CreateProjectOptions and EditProjectOptions, one
// at a time, on a running Runway, and reads the project back (issue 24: what terraform's GitLab provider
// writes must read back as written). Fields are found by reflection, so a go-gitlab upgrade is covered too.
// It prints one JSON object: per operation, the keys checked, those read back differently, and the
// options whose key the project entity does not report (nothing to drift on).
//
// Environment: RUNWAY_URL, RUNWAY_TOKEN (an `api` token), RUNWAY_GROUP_ID (a public group of the token's
// user, where the projects are made), RUNWAY_TAG.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/xanzy/go-gitlab"
)

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

var (
	base  = os.Getenv("RUNWAY_URL") + "/api/v4"
	token = os.Getenv("RUNWAY_TOKEN")
)

// read fetches the project as JSON, so a key go-gitlab's Project struct lacks is still compared.
func read(id int) map[string]interface{} {
	req, err := http.NewRequest("GET", base+"/projects/"+strconv.Itoa(id), nil)
	must(err, "request")
	req.Header.Set("PRIVATE-TOKEN", token)
	res, err := http.DefaultClient.Do(req)
	must(err, "GET project")
	defer res.Body.Close()
	out := map[string]interface{}{}
	must(json.NewDecoder(res.Body).Decode(&out), "decode project")
	return out
}

// Values GitLab accepts for string options with a fixed set, and fixed values for a few integers.
var choices = map[string][]string{
	"auto_cancel_pending_pipelines": {"enabled", "disabled"},
	"build_git_strategy":            {"fetch", "clone"},
	"merge_method":                  {"merge", "ff"},
	"squash_option":                 {"default_off", "always"},
	"visibility":                    {"private", "internal"},
}

// aliases: deprecated options GitLab reports under their new key.
var aliases = map[string]string{"public_builds": "public_jobs"}

var ints = map[string]int{"build_timeout": 7200, "ci_default_git_depth": 42, "max_artifacts_size": 12}

// skip: options whose value needs more than a write (a branch to exist, an import to run).
var skip = map[string]string{
	"default_branch": "PUT needs an existing branch",
	"import_url":     "starts an import",
}

// changed returns a value for the option differing from what the project reports now (nil: unsupported type).
func changed(key string, t reflect.Type, current interface{}, tag string) reflect.Value {
	v := reflect.New(t.Elem())
	switch t.Elem().Kind() {
	case reflect.Bool:
		cur, _ := current.(bool)
		v.Elem().SetBool(!cur)
	case reflect.Int:
		n, ok := ints[key]
		if !ok {
			n = 7
		}
		v.Elem().SetInt(int64(n))
	case reflect.String:
		cur, _ := current.(string)
		var s string
		if strings.HasSuffix(key, "_access_level") {
			s = "private"
			if cur == "private" {
				s = "enabled"
			}
		} else if c, ok := choices[key]; ok {
			s = c[0]
			if cur == c[0] {
				s = c[1]
			}
		} else if key == "ci_config_path" {
			s = "ci/" + tag + ".yml"
		} else {
			s = "go-" + strings.ReplaceAll(key, "_", "-") + "-" + tag
		}
		v.Elem().SetString(s)
	case reflect.Slice:
		if t.Elem().Elem().Kind() != reflect.String {
			return reflect.Value{}
		}
		v.Elem().Set(reflect.ValueOf([]string{"go", tag}))
	default:
		return reflect.Value{}
	}
	return v
}

type report struct {
	Checked     []string               `json:"checked"`
	Mismatched  map[string]interface{} `json:"mismatched"`
	NotReported []string               `json:"not_reported"`
	Skipped     map[string]string      `json:"skipped"`
}

func jsonKey(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("json"), ",")[0]
}

// walk sets each field of an options struct alone through apply and compares what the project then reports.
func walk(opts reflect.Type, baseline map[string]interface{}, tag string, apply func(field int, value reflect.Value) (int, error)) report {
	r := report{Checked: []string{}, Mismatched: map[string]interface{}{}, NotReported: []string{}, Skipped: map[string]string{}}
	for i := 0; i < opts.NumField(); i++ {
		f := opts.Field(i)
		key := jsonKey(f)
		if key == "" || key == "-" {
			continue
		}
		if why, ok := skip[key]; ok {
			r.Skipped[key] = why
			continue
		}
		readKey := key
		if alias, ok := aliases[key]; ok {
			readKey = alias
		}
		current, reported := baseline[readKey]
		if !reported {
			r.NotReported = append(r.NotReported, key)
			continue
		}
		v := changed(key, f.Type, current, tag)
		if !v.IsValid() {
			r.Skipped[key] = "option type " + f.Type.String()
			continue
		}
		id, err := apply(i, v)
		if err != nil {
			r.Mismatched[key] = map[string]interface{}{"error": err.Error()}
			continue
		}
		got := read(id)[readKey]
		sent, _ := json.Marshal(v.Interface())
		back, _ := json.Marshal(got)
		if string(sent) != string(back) {
			r.Mismatched[key] = map[string]interface{}{"sent": json.RawMessage(sent), "read": json.RawMessage(back)}
		}
		r.Checked = append(r.Checked, key)
	}
	return r
}

func main() {
	tag := os.Getenv("RUNWAY_TAG")
	groupID, err := strconv.Atoi(os.Getenv("RUNWAY_GROUP_ID"))
	must(err, "RUNWAY_GROUP_ID")
	gl, err := gitlab.NewClient(token, gitlab.WithBaseURL(base))
	must(err, "client")
	n := 0
	newProject := func(opt *gitlab.CreateProjectOptions) (*gitlab.Project, error) {
		n++
		opt.Path = gitlab.String(fmt.Sprintf("%s-%d", tag, n))
		opt.NamespaceID = gitlab.Int(groupID)
		p, _, err := gl.Projects.CreateProject(opt)
		return p, err
	}
	baseline, err := newProject(&gitlab.CreateProjectOptions{})
	must(err, "CreateProject")
	reported := read(baseline.ID)

	out := map[string]report{}
	out["create"] = walk(reflect.TypeOf(gitlab.CreateProjectOptions{}), reported, tag, func(i int, v reflect.Value) (int, error) {
		opt := gitlab.CreateProjectOptions{}
		reflect.ValueOf(&opt).Elem().Field(i).Set(v)
		if opt.Path != nil {
			// The path option itself: keep it, and name the project after it.
			opt.Name = opt.Path
			p, _, err := gl.Projects.CreateProject(&gitlab.CreateProjectOptions{Path: opt.Path, Name: opt.Name, NamespaceID: gitlab.Int(groupID)})
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
		p, err := newProject(&opt)
		if err != nil {
			return 0, err
		}
		return p.ID, nil
	})
	edited, err := newProject(&gitlab.CreateProjectOptions{})
	must(err, "CreateProject")
	// Another tag: the create walk already took its names and paths.
	out["edit"] = walk(reflect.TypeOf(gitlab.EditProjectOptions{}), read(edited.ID), tag+"-e", func(i int, v reflect.Value) (int, error) {
		opt := gitlab.EditProjectOptions{}
		reflect.ValueOf(&opt).Elem().Field(i).Set(v)
		_, _, err := gl.Projects.EditProject(edited.ID, &opt)
		return edited.ID, err
	})
	enc, _ := json.Marshal(out)
	fmt.Println(string(enc))
}
