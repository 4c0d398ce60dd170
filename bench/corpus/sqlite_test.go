package corpus

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpenDBLoadsEveryRow: each SQLite table of both databases has the
// live rows of its table (the hit events: the readable ones), the index
// database has the corpus's indexes and the scan database none.
func TestOpenDBLoadsEveryRow(t *testing.T) {
	d, err := small()
	require.NoError(t, err)
	db, err := OpenDB(d, Cases())
	require.NoError(t, err)
	defer db.Close()
	for name, n := range map[string]int{
		"unit": d.A.Unit.Table.Len(), "body": d.A.Body.Table.Len(), "projectile": d.A.Projectile.Table.Len(),
		"hit_event": len(d.A.HitEvent.Read()), "player": d.Shop.Player.Table.Len(), "profile": d.Shop.Profile.Table.Len(),
		"premium": d.Shop.Premium.Table.Len(), "banned": d.Shop.Banned.Table.Len(), "product": d.Shop.Product.Table.Len(),
		"orders": d.Shop.Order.Table.Len(),
	} {
		require.Positive(t, n, name)
		for conn, s := range map[string]*sql.DB{"scan": db.Scan, "index": db.Index} {
			var got int
			require.NoError(t, s.QueryRow("SELECT count(*) FROM "+name).Scan(&got))
			require.Equal(t, n, got, "%s rows in %s", name, conn)
		}
	}
	const indexes = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
	var ix int
	require.NoError(t, db.Index.QueryRow(indexes).Scan(&ix))
	require.GreaterOrEqual(t, ix, 10)
	require.NoError(t, db.Scan.QueryRow(indexes).Scan(&ix))
	require.Zero(t, ix, "the scan database has no secondary index")
}
