package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// A third-party witness (c2sp.org/tlog-witness) of one log, its state in memory: the size and root it co-signed last
// for each origin of the log (a Rollbook campaign's revisions are origins `NAME` and `NAME/rN`).
type witness struct {
	name   string
	key    ed25519.PrivateKey
	log    note.Verifier
	vkey   string
	mu     sync.Mutex
	latest map[string]*checkpoint
}

var oldSize = regexp.MustCompile(`^old (0|[1-9][0-9]{0,18})$`)

func serveWitness(listen, name, seed, logVkey string) error {
	raw, err := hex.DecodeString(seed)
	if err != nil || len(raw) != ed25519.SeedSize {
		return fmt.Errorf("-seed: 64 hex digits")
	}
	log, err := note.NewVerifier(logVkey)
	if err != nil {
		return fmt.Errorf("-log-vkey: %v", err)
	}
	w := &witness{name: name, key: ed25519.NewKeyFromSeed(raw), log: log, vkey: logVkey, latest: map[string]*checkpoint{}}
	listener, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	fmt.Printf("vkey %s\nurl http://%s\n", cosignerVkey(name, w.key.Public().(ed25519.PublicKey)), listener.Addr())
	mux := http.NewServeMux()
	mux.HandleFunc("/add-checkpoint", w.addCheckpoint)
	return http.Serve(listener, mux)
}

func answer(rw http.ResponseWriter, status int, format string, args ...any) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.WriteHeader(status)
	fmt.Fprintf(rw, format+"\n", args...)
}

func (w *witness) addCheckpoint(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		answer(rw, http.StatusMethodNotAllowed, "POST only")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		answer(rw, http.StatusBadRequest, "%v", err)
		return
	}
	head, msg, found := bytes.Cut(body, []byte("\n\n"))
	lines := strings.Split(string(head), "\n")
	if !found || !oldSize.MatchString(lines[0]) || len(lines)-1 > 63 {
		answer(rw, http.StatusBadRequest, "the request begins with 'old SIZE' and at most 63 proof lines")
		return
	}
	old, _ := strconv.ParseInt(lines[0][4:], 10, 64)
	var proof tlog.TreeProof
	for _, line := range lines[1:] {
		raw, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(raw) != tlog.HashSize {
			answer(rw, http.StatusBadRequest, "a proof line is a base64 hash: %q", line)
			return
		}
		var h tlog.Hash
		copy(h[:], raw)
		proof = append(proof, h)
	}
	origin, _, _ := strings.Cut(string(msg), "\n")
	if origin != w.log.Name() && !strings.HasPrefix(origin, w.log.Name()+"/r") {
		answer(rw, http.StatusNotFound, "no log %q is witnessed here", origin)
		return
	}
	verifier, err := w.verifierFor(origin)
	if err != nil {
		answer(rw, http.StatusBadRequest, "%v", err)
		return
	}
	offered, err := open(msg, note.VerifierList(verifier))
	if err != nil {
		var unverified *note.UnverifiedNoteError
		var invalid *note.InvalidSignatureError
		if errors.As(err, &unverified) || errors.As(err, &invalid) {
			answer(rw, http.StatusForbidden, "%v", err)
		} else {
			answer(rw, http.StatusBadRequest, "%v", err)
		}
		return
	}
	if old > offered.size {
		answer(rw, http.StatusBadRequest, "old size %d is above the checkpoint's %d", old, offered.size)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	last := w.latest[origin]
	if last == nil {
		last = &checkpoint{origin: origin}
	}
	if old != last.size || (old == offered.size && old > 0 && offered.root != last.root) {
		rw.Header().Set("Content-Type", "text/x.tlog.size")
		rw.WriteHeader(http.StatusConflict)
		fmt.Fprintf(rw, "%d\n", last.size)
		return
	}
	if (old == 0 || old == offered.size) && len(proof) > 0 {
		answer(rw, http.StatusUnprocessableEntity, "no proof is needed from %d to %d", old, offered.size)
		return
	}
	if old > 0 && old < offered.size {
		if err := tlog.CheckTree(proof, offered.size, offered.root, old, last.root); err != nil {
			answer(rw, http.StatusUnprocessableEntity, "tlog.CheckTree: %v", err)
			return
		}
	}
	text, _, _ := bytes.Cut(msg, []byte("\n\n"))
	line := cosign(w.name, w.key, append(text, '\n'), uint64(time.Now().Unix()))
	w.latest[origin] = offered
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(rw, line)
}

// verifierFor is the log's key under the origin's name: a Rollbook revision N's checkpoints are signed by the
// campaign's key named as their origin, `NAME/rN` (tlog-checkpoint: the key name is the origin).
func (w *witness) verifierFor(origin string) (note.Verifier, error) {
	if origin == w.log.Name() {
		return w.log, nil
	}
	parts := strings.SplitN(w.vkey, "+", 3)
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 {
		return nil, fmt.Errorf("the log's vkey holds no Ed25519 key")
	}
	return note.NewVerifier(fmt.Sprintf("%s+%08x+%s", origin, keyHash(origin, raw[0], raw[1:]), parts[2]))
}
