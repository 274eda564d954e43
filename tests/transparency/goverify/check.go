package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type server struct {
	base, campaign, token string
	tiles                 map[string][]byte
	requests              int
}

func (s *server) get(path string, query url.Values) ([]byte, error) {
	where := s.base + "/campaigns/" + url.PathEscape(s.campaign) + path
	if !strings.HasPrefix(path, "/log/") {
		// Revision 1's log, the one under /log/: the JSON routes default to the current revision.
		if query == nil {
			query = url.Values{}
		}
		query.Set("revision", "1")
		where += "?" + query.Encode()
	}
	request, _ := http.NewRequest("GET", where, nil)
	request.Header.Set("Authorization", "Bearer "+s.token)
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	s.requests++
	body, err := io.ReadAll(response.Body)
	if err == nil && response.StatusCode != 200 {
		err = fmt.Errorf("GET %s: %d %s", where, response.StatusCode, body)
	}
	return body, err
}

// A tlog.TileReader over C2SP tlog-tiles: x/mod's tiles are `tile/H/L/N[.p/W]` (sumdb), C2SP's `tile/L/N[.p/W]`.
func (s *server) Height() int { return 8 }

func (s *server) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(tiles))
	for i, tile := range tiles {
		path := "tile/" + strings.TrimPrefix(tile.Path(), "tile/8/")
		if kept, ok := s.tiles[path]; ok {
			data[i] = kept
			continue
		}
		body, err := s.get("/log/"+path, nil)
		if err != nil {
			return nil, err
		}
		data[i] = body
	}
	return data, nil
}

func (s *server) SaveTiles(tiles []tlog.Tile, data [][]byte) {
	for i, tile := range tiles {
		s.tiles["tile/"+strings.TrimPrefix(tile.Path(), "tile/8/")] = data[i]
	}
}

type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
	signed []string
}

// open is note.Open, then the checkpoint's own lines (c2sp.org/tlog-checkpoint).
func open(text []byte, verifiers note.Verifiers) (*checkpoint, error) {
	opened, err := note.Open(text, verifiers)
	if err != nil {
		return nil, fmt.Errorf("note.Open: %v", err)
	}
	lines := strings.Split(opened.Text, "\n")
	if len(lines) < 4 {
		return nil, fmt.Errorf("a checkpoint of fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || strconv.FormatInt(size, 10) != lines[1] {
		return nil, fmt.Errorf("checkpoint size %q", lines[1])
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return nil, fmt.Errorf("checkpoint root %q", lines[2])
	}
	c := &checkpoint{origin: lines[0], size: size}
	copy(c.root[:], raw)
	for _, sig := range opened.Sigs {
		c.signed = append(c.signed, sig.Name)
	}
	return c, nil
}

func verifiers(logVkey string, witnesses []string) (note.Verifiers, []*cosigner, error) {
	log, err := note.NewVerifier(logVkey)
	if err != nil {
		return nil, nil, fmt.Errorf("the log's vkey: %v", err)
	}
	all, cosigners := []note.Verifier{log}, []*cosigner{}
	for _, vkey := range witnesses {
		c, err := parseCosigner(vkey)
		if err != nil {
			return nil, nil, err
		}
		all, cosigners = append(all, c), append(cosigners, c)
	}
	return note.VerifierList(all...), cosigners, nil
}

func hexHashes(texts []string) ([]tlog.Hash, error) {
	hashes := make([]tlog.Hash, len(texts))
	for i, text := range texts {
		raw, err := hex.DecodeString(text)
		if err != nil || len(raw) != tlog.HashSize {
			return nil, fmt.Errorf("hash %q", text)
		}
		copy(hashes[i][:], raw)
	}
	return hashes, nil
}

type report struct {
	Origin      string   `json:"origin"`
	Size        int64    `json:"size"`
	Inclusion   int      `json:"inclusion"`
	Consistency int      `json:"consistency"`
	Records     int      `json:"records"`
	Checkpoints int      `json:"checkpoints"`
	Cosigned    []string `json:"cosigned"`
	Requests    int      `json:"requests"`
}

func check(s *server, logVkey string, witnesses, records []string) (*report, error) {
	s.tiles = map[string][]byte{}
	all, cosigners, err := verifiers(logVkey, witnesses)
	if err != nil {
		return nil, err
	}
	text, err := s.get("/log/checkpoint", nil)
	if err != nil {
		return nil, err
	}
	head, err := open(text, all)
	if err != nil {
		return nil, fmt.Errorf("the log's checkpoint: %v", err)
	}
	r := &report{Origin: head.origin, Size: head.size, Checkpoints: 1}
	tree := tlog.Tree{N: head.size, Hash: head.root}
	hashes := tlog.TileHashReader(tree, s)
	if root, err := tlog.TreeHash(head.size, hashes); err != nil || root != head.root {
		return nil, fmt.Errorf("the root Go computes from the tiles is %v (%v), the checkpoint's %v", root, err, head.root)
	}
	// Every leaf: its inclusion proof, built by Go from the tiles, against the signed root.
	for i := int64(0); i < head.size; i++ {
		leaf, err := hashes.ReadHashes([]int64{tlog.StoredHashIndex(0, i)})
		if err != nil {
			return nil, fmt.Errorf("leaf %d: %v", i, err)
		}
		proof, err := tlog.ProveRecord(head.size, i, hashes)
		if err == nil {
			err = tlog.CheckRecord(proof, head.size, head.root, i, leaf[0])
		}
		if err != nil {
			return nil, fmt.Errorf("inclusion of leaf %d in %d: %v", i, head.size, err)
		}
		r.Inclusion++
	}
	// Earlier sizes: the checkpoint the log signs at each, and its consistency with now, from the tiles and from the
	// log's own JSON proof.
	for _, m := range []int64{1, 2, 3, head.size / 3, head.size / 2, head.size - 1, head.size} {
		if m < 1 || m > head.size {
			continue
		}
		text, err := s.get("/checkpoint/note", url.Values{"size": {strconv.FormatInt(m, 10)}})
		if err != nil {
			return nil, err
		}
		old, err := open(text, all)
		if err != nil {
			return nil, fmt.Errorf("checkpoint at %d: %v", m, err)
		}
		r.Checkpoints++
		if root, err := tlog.TreeHash(m, hashes); err != nil || root != old.root || old.origin != head.origin {
			return nil, fmt.Errorf("checkpoint at %d: root %v, Go computes %v (%v)", m, old.root, root, err)
		}
		proof, err := tlog.ProveTree(head.size, m, hashes)
		if err == nil {
			err = tlog.CheckTree(proof, head.size, head.root, m, old.root)
		}
		if err != nil {
			return nil, fmt.Errorf("consistency %d to %d from the tiles: %v", m, head.size, err)
		}
		body, err := s.get("/proof/consistency", url.Values{"from": {strconv.FormatInt(m, 10)},
			"to": {strconv.FormatInt(head.size, 10)}})
		if err != nil {
			return nil, err
		}
		var document struct{ Path []string }
		if err := json.Unmarshal(body, &document); err != nil {
			return nil, err
		}
		path, err := hexHashes(document.Path)
		if err == nil {
			err = tlog.CheckTree(path, head.size, head.root, m, old.root)
		}
		if err != nil {
			return nil, fmt.Errorf("the log's consistency proof %d to %d: %v", m, head.size, err)
		}
		r.Consistency++
	}
	for _, id := range records {
		if err := checkRecord(s, id, all, head); err != nil {
			return nil, fmt.Errorf("record %s: %v", id, err)
		}
		r.Records++
	}
	if len(cosigners) > 0 {
		text, err := s.get("/checkpoint/note", url.Values{"cosigned": {"true"}})
		if err != nil {
			return nil, err
		}
		cosigned, err := open(text, all)
		if err != nil {
			return nil, fmt.Errorf("the co-signed checkpoint: %v", err)
		}
		for _, c := range cosigners {
			found := false
			for _, name := range cosigned.signed {
				found = found || name == c.name
			}
			if !found {
				return nil, fmt.Errorf("the co-signed checkpoint carries no cosignature by %s", c.name)
			}
			r.Cosigned = append(r.Cosigned, c.name)
		}
	}
	r.Requests = s.requests
	return r, nil
}

// checkRecord recomputes a command's chain hash and leaf from its record, as Rollbook documents them, and checks
// the log's inclusion proof of it against the checkpoint the proof names.
func checkRecord(s *server, id string, all note.Verifiers, head *checkpoint) error {
	body, err := s.get("/proof/inclusion", url.Values{"roll": {id}})
	if err != nil {
		return err
	}
	var proof struct {
		LeafIndex  int64    `json:"leaf_index"`
		TreeSize   int64    `json:"tree_size"`
		LeafHash   string   `json:"leaf_hash"`
		Path       []string `json:"path"`
		Checkpoint string   `json:"checkpoint"`
		Record     struct {
			Seq           int64  `json:"seq"`
			Chain         string `json:"chain"`
			PreviousChain string `json:"previous_chain"`
			Command       string `json:"command"`
			Writes        string `json:"writes"`
		} `json:"record"`
	}
	if err := json.Unmarshal(body, &proof); err != nil {
		return err
	}
	signed, err := open([]byte(proof.Checkpoint), all)
	if err != nil {
		return err
	}
	chain := sha256.Sum256([]byte(proof.Record.PreviousChain + proof.Record.Command + proof.Record.Writes))
	if hex.EncodeToString(chain[:]) != proof.Record.Chain {
		return fmt.Errorf("its chain hash is not SHA-256 of the previous one, the command and its writes")
	}
	data := binary.BigEndian.AppendUint64(nil, uint64(proof.Record.Seq))
	leaf := tlog.RecordHash(append(data, chain[:]...))
	if hex.EncodeToString(leaf[:]) != proof.LeafHash || proof.LeafIndex != proof.Record.Seq-1 {
		return fmt.Errorf("leaf %s, Go computes %v at %d", proof.LeafHash, leaf, proof.Record.Seq-1)
	}
	path, err := hexHashes(proof.Path)
	if err != nil {
		return err
	}
	if signed.size != proof.TreeSize || signed.origin != head.origin {
		return fmt.Errorf("the proof is of %d in %s, its checkpoint of %d in %s", proof.TreeSize, head.origin,
			signed.size, signed.origin)
	}
	return tlog.CheckRecord(path, signed.size, signed.root, proof.LeafIndex, leaf)
}
