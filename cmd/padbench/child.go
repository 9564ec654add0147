package main

// The generic path is timed in a child process: padbench runs itself with
// GODEBUG turning off every SIMD feature pad's dispatch looks at, and the
// hidden flag -generic-child. The child answers JSON-line requests on stdin
// one at a time, so its samples interleave with the parent's pad and copy
// samples and the two processes never run at once:
//
//	start              <- {"kernels": "go (amd64: no avx2)", "go": "go1.26.8"}
//	{"op":"prepare","case":{...}} <- {"sum": "<FNV-64a of the output, hex>", "out_bytes": N}
//	{"op":"run","n":N}            <- {"ns": <elapsed ns of N runs, timed in the child>}
//	{"op":"quit"}

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/suite"
)

// genericGODEBUG is what turns off the SIMD kernels on this architecture
// ("" where pad has none).
func genericGODEBUG() string {
	switch runtime.GOARCH {
	case "amd64":
		return "cpu.avx2=off,cpu.avx512f=off"
	case "arm64":
		return "cpu.asimd=off"
	}
	return ""
}

type childRequest struct {
	Op   string      `json:"op"`
	Case *suite.Case `json:"case,omitempty"`
	N    int         `json:"n,omitempty"`
}

type childResponse struct {
	Kernels  string `json:"kernels,omitempty"`
	Go       string `json:"go,omitempty"`
	Sum      string `json:"sum,omitempty"`
	OutBytes int    `json:"out_bytes,omitempty"`
	NS       int64  `json:"ns,omitempty"`
	Err      string `json:"err,omitempty"`
}

// serveGeneric is the child's main loop: it pads the cases it is sent with
// the kernels of this process and times them on request.
func serveGeneric(r io.Reader, w io.Writer, opts []pad.Option) error {
	dec := json.NewDecoder(bufio.NewReader(r))
	enc := json.NewEncoder(w) // one line per response, unbuffered
	if err := enc.Encode(childResponse{Kernels: pad.Kernels(), Go: runtime.Version()}); err != nil {
		return err
	}
	var cur *benchCase
	for {
		var req childRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var resp childResponse
		switch req.Op {
		case "prepare":
			cur = nil
			if req.Case == nil {
				resp.Err = "prepare without a case"
				break
			}
			bc, err := newBenchCase(*req.Case, opts)
			if err != nil {
				resp.Err = err.Error()
				break
			}
			cur = bc
			resp.Sum = hex.EncodeToString(bc.sum)
			resp.OutBytes = len(bc.dst)
		case "run":
			if cur == nil {
				resp.Err = "run before a successful prepare"
				break
			}
			d, err := timeLoop(req.N, cur.run)
			if err != nil {
				resp.Err = err.Error()
				break
			}
			resp.NS = max(d.Nanoseconds(), 1)
		case "quit":
			return nil
		default:
			resp.Err = fmt.Sprintf("unknown op %q", req.Op)
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
	}
}

// genericClient drives a serveGeneric over a pair of streams.
type genericClient struct {
	enc     *json.Encoder
	dec     *json.Decoder
	kernels string
	goVer   string
	closer  func() error
}

func newGenericClient(r io.Reader, w io.Writer) (*genericClient, error) {
	c := &genericClient{enc: json.NewEncoder(w), dec: json.NewDecoder(bufio.NewReader(r))}
	var hello childResponse
	if err := c.dec.Decode(&hello); err != nil {
		return nil, fmt.Errorf("generic child: no greeting: %w", err)
	}
	c.kernels, c.goVer = hello.Kernels, hello.Go
	return c, nil
}

func (c *genericClient) call(req childRequest) (childResponse, error) {
	var resp childResponse
	if err := c.enc.Encode(req); err != nil {
		return resp, fmt.Errorf("generic child: %w", err)
	}
	if err := c.dec.Decode(&resp); err != nil {
		return resp, fmt.Errorf("generic child: %w", err)
	}
	if resp.Err != "" {
		return resp, fmt.Errorf("generic child: %s", resp.Err)
	}
	return resp, nil
}

// prepare makes the child pad c once and returns its output's checksum.
func (c *genericClient) prepare(cs suite.Case) ([]byte, error) {
	resp, err := c.call(childRequest{Op: "prepare", Case: &cs})
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(resp.Sum)
}

// run times n runs of the prepared case in the child.
func (c *genericClient) run(n int) (time.Duration, error) {
	resp, err := c.call(childRequest{Op: "run", N: n})
	return time.Duration(resp.NS), err
}

func (c *genericClient) close() error {
	c.enc.Encode(childRequest{Op: "quit"}) // the child may be gone already
	if c.closer != nil {
		return c.closer()
	}
	return nil
}

// startGenericChild runs this program again as the generic child, with the
// given extra arguments (the -workers setting).
func startGenericChild(args []string) (*genericClient, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, append([]string{"-generic-child"}, args...)...)
	cmd.Env = withGODEBUG(os.Environ(), genericGODEBUG())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c, err := newGenericClient(stdout, stdin)
	if err != nil {
		stdin.Close()
		cmd.Wait()
		return nil, err
	}
	c.closer = func() error {
		stdin.Close()
		return cmd.Wait()
	}
	return c, nil
}

// withGODEBUG returns env with settings appended to GODEBUG (later settings
// win, so these override any the user gave).
func withGODEBUG(env []string, settings string) []string {
	if settings == "" {
		return env
	}
	old := ""
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			old = v
			continue
		}
		out = append(out, kv)
	}
	if old != "" {
		settings = old + "," + settings
	}
	return append(out, "GODEBUG="+settings)
}
