package commands

import "github.com/tickwork/tickwork/internal/plumb"

// playbackOps is the snapshot side of a Playback (plumb.Playback): the
// pending resolutions of provisional handles, which only the scheduler's
// state carries, through plumb.PlaybackOf.
type playbackOps Playback

func init() {
	plumb.RegisterPlayback(func(p any) plumb.Playback { return (*playbackOps)(p.(*Playback)) })
}

func (o *playbackOps) p() *Playback                           { return (*Playback)(o) }
func (o *playbackOps) AppendState(dst []byte) ([]byte, error) { return o.p().appendState(dst) }
func (o *playbackOps) CheckState(src []byte) error            { return o.p().checkState(src) }
func (o *playbackOps) LoadState(src []byte)                   { o.p().loadState(src) }
func (o *playbackOps) Describe(dst []byte) []byte             { return o.p().describe(dst) }

func (o *playbackOps) StateSize() int        { return o.p().stateSize() }
func (o *playbackOps) StateMax() (int, bool) { return 8, false }
