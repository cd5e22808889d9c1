// Package optionwalk sets each field of a go-gitlab options struct alone on a running Runway and compares
// what the entity then reports (issue 24: what terraform's GitLab provider writes must read back as
// written). Fields are found by reflection, so a go-gitlab upgrade is covered too. Shared by the
// projectoptions and groupoptions commands, which say how to write and read their entity.
package optionwalk

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

// Must stops the command on an error of the setup (not of an option under test).
func Must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

var (
	// Base is Runway's API root, Token the `api` token the commands act with.
	Base  = os.Getenv("RUNWAY_URL") + "/api/v4"
	Token = os.Getenv("RUNWAY_TOKEN")
)

// Setup reads RUNWAY_TAG and RUNWAY_GROUP_ID (a group of the token's user) and makes the go-gitlab client.
func Setup() (gl *gitlab.Client, tag string, groupID int) {
	groupID, err := strconv.Atoi(os.Getenv("RUNWAY_GROUP_ID"))
	Must(err, "RUNWAY_GROUP_ID")
	gl, err = gitlab.NewClient(Token, gitlab.WithBaseURL(Base))
	Must(err, "client")
	return gl, os.Getenv("RUNWAY_TAG"), groupID
}

// Read fetches an entity as JSON (path below /api/v4), so a key go-gitlab's struct lacks is still compared.
func Read(path string) map[string]interface{} {
	req, err := http.NewRequest("GET", Base+path, nil)
	Must(err, "request")
	req.Header.Set("PRIVATE-TOKEN", Token)
	res, err := http.DefaultClient.Do(req)
	Must(err, "GET "+path)
	defer res.Body.Close()
	out := map[string]interface{}{}
	Must(json.NewDecoder(res.Body).Decode(&out), "decode "+path)
	return out
}

// Values says what to write for an option.
type Values struct {
	// Choices: values GitLab accepts for string options with a fixed set (the first that differs is sent).
	Choices map[string][]string
	// Ints: fixed values for integer options (7 otherwise).
	Ints map[string]int
	// Strings: fixed values for string options (a name made of the key and the tag otherwise).
	Strings map[string]string
	// Aliases: deprecated options GitLab reports under their new key.
	Aliases map[string]string
	// Skip: options whose value needs more than a write, and why.
	Skip map[string]string
	// Read fetches the entity by id.
	Read func(id int) map[string]interface{}
}

// changed returns a value for the option differing from what the entity reports now (invalid: unsupported type).
func (vals Values) changed(key string, t reflect.Type, current interface{}, tag string) reflect.Value {
	v := reflect.New(t.Elem())
	switch t.Elem().Kind() {
	case reflect.Bool:
		cur, _ := current.(bool)
		v.Elem().SetBool(!cur)
	case reflect.Int:
		n, ok := vals.Ints[key]
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
		} else if c, ok := vals.Choices[key]; ok {
			s = c[0]
			if cur == c[0] {
				s = c[1]
			}
		} else if fixed, ok := vals.Strings[key]; ok {
			s = fixed
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

// Report is one operation's outcome: the keys checked, those read back differently, the options whose key
// the entity does not report (nothing to drift on), and those skipped with why.
type Report struct {
	Checked     []string               `json:"checked"`
	Mismatched  map[string]interface{} `json:"mismatched"`
	NotReported []string               `json:"not_reported"`
	Skipped     map[string]string      `json:"skipped"`
}

func jsonKey(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("json"), ",")[0]
}

// Walk sets each field of an options struct (example: its zero value) alone: apply gets a pointer to a new
// struct with only that field set, sends it and returns the entity's id; what the entity then reports is
// compared with what was sent.
func Walk(example interface{}, baseline map[string]interface{}, tag string, vals Values, apply func(opt interface{}) (int, error)) Report {
	opts := reflect.TypeOf(example)
	r := Report{Checked: []string{}, Mismatched: map[string]interface{}{}, NotReported: []string{}, Skipped: map[string]string{}}
	for i := 0; i < opts.NumField(); i++ {
		f := opts.Field(i)
		key := jsonKey(f)
		if key == "" || key == "-" {
			continue
		}
		if why, ok := vals.Skip[key]; ok {
			r.Skipped[key] = why
			continue
		}
		readKey := key
		if alias, ok := vals.Aliases[key]; ok {
			readKey = alias
		}
		current, reported := baseline[readKey]
		if !reported {
			r.NotReported = append(r.NotReported, key)
			continue
		}
		v := vals.changed(key, f.Type, current, tag)
		if !v.IsValid() {
			r.Skipped[key] = "option type " + f.Type.String()
			continue
		}
		opt := reflect.New(opts)
		opt.Elem().Field(i).Set(v)
		id, err := apply(opt.Interface())
		if err != nil {
			r.Mismatched[key] = map[string]interface{}{"error": err.Error()}
			continue
		}
		got := vals.Read(id)[readKey]
		sent, _ := json.Marshal(v.Interface())
		back, _ := json.Marshal(got)
		if string(sent) != string(back) {
			r.Mismatched[key] = map[string]interface{}{"sent": json.RawMessage(sent), "read": json.RawMessage(back)}
		}
		r.Checked = append(r.Checked, key)
	}
	return r
}

// Print writes the reports as the one JSON object the test reads.
func Print(out map[string]Report) {
	enc, err := json.Marshal(out)
	Must(err, "encode")
	fmt.Println(string(enc))
}
