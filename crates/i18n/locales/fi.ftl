# Suomi. Korttisanat: valtti, tikki, pakka, nostaa, tunnustaa maata.

## Virheluokat: viesti virheelle, jonka syyllä ei ole omaa riviä alla.

error-cancelled = Pyyntö peruttiin.
error-unknown = Jokin meni vikaan.
error-invalid-argument = Kenttä { $field } ei kelpaa.
error-invalid-request = Pyyntö ei kelpaa.
error-deadline-exceeded = Pyyntö kesti liian kauan.
error-not-found = Ei löytynyt.
error-already-exists = Se on jo olemassa.
error-permission-denied = Sinulla ei ole lupaa siihen.
error-resource-exhausted = Liian monta pyyntöä; odota hetki ja yritä uudelleen.
error-failed-precondition = Se ei onnistu nyt.
error-aborted = Pyyntö törmäsi toiseen; yritä uudelleen.
error-out-of-range = Arvo on sallitun alueen ulkopuolella.
error-unimplemented = Sitä ei tueta.
error-internal = Sisäinen virhe.
error-unavailable = Palvelu ei ole käytettävissä; yritä pian uudelleen.
error-data-loss = Tietoja on kadonnut.
error-unauthenticated = Et ole kirjautunut, tai istuntosi on päättynyt.

## Palvelun virheet syyn mukaan.

error-stale-version = Peli on edennyt (se on versiossa { $current_version }, ei { $expected_version }).
error-version-ahead = Peli on versiossa { $current_version }, ei vielä versiossa { $min_version }.
error-move-id-reused = Siirron tunniste on jo käytetty toiseen siirtoon.
error-request-id-reused = Pyynnön tunniste on jo käytetty toiseen pyyntöön.
error-missing-scope = Tähän tarvitaan tunnus, jolla on oikeus "{ $scope }".
error-rate-limited = Liian monta pyyntöä ({ $class }); yritä uudelleen { $retry_after_ms } ms:n kuluttua.
error-quota-exceeded = Olet saavuttanut rajan { $limit } ({ $quota }).
error-bot-games-exceeded = Nämä botit ovat aloittaneet { $limit } peliä botteja vastaan viimeisen vuorokauden aikana, suurimman sallitun määrän.
error-overloaded = Palvelu on kiireinen; yritä uudelleen { $retry_after_ms } ms:n kuluttua.
error-no-such-route = Osoitetta ei ole.
error-body-too-large = Pyyntö on liian suuri.
error-unsupported-media-type = Pyynnön on oltava JSONia.
error-method-not-allowed = Metodi ei ole sallittu tässä.
error-timeout = Pyyntö kesti liian kauan.
error-malformed-json = Pyyntö ei ole kelvollista JSONia.
error-account-disabled = Tili on poistettu käytöstä.
error-device-taken = Laite on jo käytössä.
error-name-taken = Nimi on jo varattu.
error-no-password = Tilillä ei ole salasanaa.
error-no-world-found = Mikään mahdollinen jako ei sovi siihen, mitä on nähty.
error-not-a-guest = Vain vierastili voi tehdä sen.
error-not-a-person = Vain ihminen voi tehdä sen, ei botti.
error-operator-only-field = Vain ylläpitäjä voi asettaa kentän { $field }.
error-rated-requires-account = Pisteytetty peli vaatii kirjautuneen tilin.
error-registration-condition = Et täytä ilmoittautumisen ehtoja.
error-seat-requires-consent = Paikka vaatii pelaajan suostumuksen.
error-spectator-sees-no-hand = Katsoja ei näe kättä.
error-token-expired = Istuntosi on vanhentunut; kirjaudu uudelleen.
error-token-revoked = Istuntosi on päättynyt; kirjaudu uudelleen.
error-too-many-streams = Liian monta avointa virtaa.
error-wrong-password = Väärä nimi tai salasana.
error-no-open-seat = Pöydässä ei ole vapaata paikkaa.
error-refresh-token-reused = Istuntoa käytettiin muualla, ja se on päätetty; kirjaudu uudelleen.
error-seat-forfeited = Paikkasi luovutti ajan loputtua; kello pelaa sitä pelin loppuun asti.

## Sääntöjen kieltämät siirrot.

error-game-over = Peli on päättynyt.
error-awaiting-shuffle = Kortteja sekoitetaan; odota.
error-no-shuffle-awaited = Sekoitusta ei odoteta.
error-wrong-shuffle = Sekoitus ei järjestä odotettuja kortteja.
error-no-such-seat = Pöydässä ei ole sellaista paikkaa.
error-not-your-turn = Ei ole sinun vuorosi.
error-card-not-held = Sinulla ei ole sitä korttia kädessä.
error-one-card-only = Näissä säännöissä pelataan kortti kerrallaan.
error-not-one-rank = Yhdessä pelattujen korttien on oltava samaa arvoa.
error-not-a-sequence = Pöytään lyödään yksi kortti tai saman maan suora.
error-run-must-start-with-two = Suoran on alettava maansa kakkosesta.
error-does-not-beat = Kortti ei kaada päällimmäistä korttia.
error-chance-needs-two-cards = Onnenkauppa vaatii vähintään kaksi korttia pakassa.
error-chance-not-allowed = Näissä säännöissä ei pelata onnenkauppaa.
error-chance-in-phase-two = Onnenkauppaa pelataan vain ensimmäisessä vaiheessa.
error-pickup-empty-table = Pöydässä ei ole mitään nostettavaa.
error-pickup-in-phase-one = Pöydästä saa nostaa vasta toisessa vaiheessa.
error-must-pick-up = Sinun on nostettava.
error-must-beat = Voit kaataa kortin, joten et saa nostaa.
error-empty-hand-must-pick-up = Tyhjällä kädellä saat vain nostaa.
error-kind-not-in-ruleset = Näissä säännöissä ei ole sellaista siirtoa.
error-not-now = Se siirto ei onnistu nyt.
error-not-sluffable = Sitä korttia ei voi nyt heittää pois.
error-must-follow = Sinulla on aloitettua maata, joten sinun on tunnustettava maata.
error-must-tie = Sinulla on tikin korkeinta arvoa oleva kortti, joten sinun on pelattava se.

## Miten peli päättyi.

end-played-out = Pelattu loppuun
end-action-limit = Tasapeli: siirtoraja tuli vastaan
end-resigned = Joku luovutti
end-timeout = Joltakulta loppui aika
end-void = Peli mitätöitiin
end-forfeit = Joku luovutti ottelun

## Päätteen asiakas (skit).

skit-seated = Peli { $game }, olet paikalla { $seat }. Kirjoita siirron numero, q lähteäksesi.
skit-left = Lähdit pöydästä.
skit-you = Sinä: { $move }
skit-table-changed = Pöytä muuttui ennen siirtoasi; katso uudelleen.
skit-refused = Hylätty: { $why }
skit-game-over-loser = Peli päättyi: { $name } on skitgubbe.
skit-game-over-drawn = Peli päättyi: tasapeli siirtorajan vuoksi.
