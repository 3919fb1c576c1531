package crm_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	crm "github.com/crm-sandbox/crm-sandbox/sdks/go"
)

// sandbox is a real `crm sandbox start` process, started the way a user starts it.
type sandbox struct {
	BaseURL string `json:"base_url"`
	APIKey  string `json:"api_key"`
	cmd     *exec.Cmd
}

var primary, limited *sandbox

// TestMain starts the sandboxes every test talks to: one with a generous rate limit, and one with
// --rate-limit 2/1s for the 429 test.
func TestMain(m *testing.M) {
	var err error
	if primary, err = startSandbox("--rate-limit", "10000/1s"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if limited, err = startSandbox("--rate-limit", "2/1s"); err != nil {
		primary.stop()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	primary.stop()
	limited.stop()
	os.Exit(code)
}

// startSandbox runs bin/crm.js of this repository (node from PATH, or CRM_NODE) and reads its JSON line.
func startSandbox(args ...string) (*sandbox, error) {
	node := os.Getenv("CRM_NODE")
	if node == "" {
		node = "node"
	}
	bin, _ := filepath.Abs(filepath.Join("..", "..", "bin", "crm.js"))
	full := append([]string{bin, "sandbox", "start", "--port", "0", "--json", "--db", ":memory:"}, args...)
	cmd := exec.Command(node, full...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CRM_API_KEY=", "CRM_BASE_URL=")
	// The sandbox logs each 5xx (the tests inject some); that is shown only if it fails to start.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the sandbox (%s %v): %w", node, full, err)
	}
	lines := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		if scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	s := &sandbox{cmd: cmd}
	select {
	case line, ok := <-lines:
		if !ok {
			_ = cmd.Wait()
			return nil, fmt.Errorf("the sandbox exited before it was ready:\n%s", stderr.String())
		}
		if err := json.Unmarshal([]byte(line), s); err != nil {
			s.stop()
			return nil, fmt.Errorf("the sandbox's first line is not JSON: %q", line)
		}
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, fmt.Errorf("the sandbox printed nothing in 60 s")
	}
	return s, nil
}

func (s *sandbox) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
	}
}

func newClient(t *testing.T) *crm.API {
	t.Helper()
	return crm.NewClient(primary.APIKey, &crm.Options{BaseURL: primary.BaseURL})
}

var uniqueCounter int64

// unique makes a value no other test uses (emails, tags, external ids).
func unique(prefix string) string {
	uniqueCounter++
	return fmt.Sprintf("%s%d%d", prefix, time.Now().UnixNano()%1e9, uniqueCounter)
}

// armFault makes the sandbox fail the next count requests matching method and path prefix.
func armFault(t *testing.T, method, pathPrefix string, status, count int) {
	t.Helper()
	body := map[string]interface{}{"method": method, "path_prefix": pathPrefix, "status": status, "count": count}
	if _, err := newClient(t).RawRequest(context.Background(), "POST", "/_sandbox/faults", body); err != nil {
		t.Fatalf("arming the fault: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// kindOf returns the family of an SDK error, failing the test when err is not one.
func kindOf(t *testing.T, err error) *crm.Error {
	t.Helper()
	var e *crm.Error
	if !errors.As(err, &e) {
		t.Fatalf("expected a *crm.Error, got %T: %v", err, err)
	}
	return e
}
